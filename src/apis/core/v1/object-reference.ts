// core/v1 ObjectReference and LocalObjectReference: Go structs with their json tags, generated.proto numbers
// and OpenAPI docs as k8s.io/api v0.33 publishes them (both +structType=atomic).
import { field as f, struct } from '../../../api/go-struct.js';

const CORE_V1 = 'io.k8s.api.core.v1';

export const ObjectReference = struct(
  'ObjectReference',
  [
    f(1, 'kind', 'string', 'omit', { doc: 'Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
    f(2, 'namespace', 'string', 'omit', { doc: 'Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/' }),
    f(3, 'name', 'string', 'omit', { doc: 'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names' }),
    f(4, 'uid', 'string', 'omit', { go: 'UID', named: 'types.UID', doc: 'UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids' }),
    f(5, 'apiVersion', 'string', 'omit', { go: 'APIVersion', doc: 'API version of the referent.' }),
    f(6, 'resourceVersion', 'string', 'omit', {
      doc: 'Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
    }),
    f(7, 'fieldPath', 'string', 'omit', {
      doc: 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    }),
  ],
  { openapi: CORE_V1, mapType: 'atomic', doc: 'ObjectReference contains enough information to let you inspect or modify the referred object.' },
);

export const LocalObjectReference = struct(
  'LocalObjectReference',
  [
    f(1, 'name', 'string', 'omit', {
      default: '',
      doc: 'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
    }),
  ],
  { openapi: CORE_V1, mapType: 'atomic', doc: 'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.' },
);
