// autoscaling/v1 Scale: the body of the scale subresource (HPA and other controllers with protobuf
// clients send it so).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { metadataField } from '../../meta/v1/object-meta.js';

export const ScaleSpec = struct('ScaleSpec', [f(1, 'replicas', 'int32', 'omit')]);
export const ScaleStatus = struct('ScaleStatus', [f(1, 'replicas', 'int32'), f(2, 'selector', 'string', 'omit')]);
export const Scale = kindStruct('Scale', [metadataField, f(2, 'spec', ScaleSpec, 'omit'), f(3, 'status', ScaleStatus, 'omit')]);
