// autoscaling/v1 Scale: the body of the scale subresource (HPA and other controllers with protobuf
// clients send it so).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { metadataField } from '../../meta/v1/object-meta.js';

const ScaleSpec = struct('ScaleSpec', [
  f(1, 'replicas', 'int32', 'omit', {
    doc: 'replicas is the desired number of instances for the scaled object.',
  }),
], {
  openapi: 'io.k8s.api.autoscaling.v1',
  doc: 'ScaleSpec describes the attributes of a scale subresource.',
});
const ScaleStatus = struct('ScaleStatus', [
  f(1, 'replicas', 'int32', '', {
    doc: 'replicas is the actual number of observed instances of the scaled object.',
  }),
  f(2, 'selector', 'string', 'omit', {
    doc: 'selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax. More info about label selectors: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/',
  }),
], {
  openapi: 'io.k8s.api.autoscaling.v1',
  doc: 'ScaleStatus represents the current status of a scale subresource.',
});
export const Scale = kindStruct('Scale', [
  metadataField('Standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata.'),
  f(2, 'spec', ScaleSpec, 'omit', {
    doc: 'spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.',
  }),
  f(3, 'status', ScaleStatus, 'omit', {
    doc: 'status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only.',
  }),
], {
  openapi: 'io.k8s.api.autoscaling.v1',
  doc: 'Scale represents a scaling request for a resource.',
});
