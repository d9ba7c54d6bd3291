// json.Unmarshal(b, &map[string]interface{}{}): the error a docker config secret's value gets when it is
// not a JSON object (a syntax error, or `json: cannot unmarshal array into Go value of type map[string]interface {}`).
import { GoJsonError, goMap, goUnmarshal } from '../../../util/go-json.js';

export function goJsonObjectError(b: Uint8Array): string | undefined {
  try {
    goUnmarshal(b, goMap);
    return undefined;
  } catch (e) {
    if (e instanceof GoJsonError) return e.message;
    throw e;
  }
}
