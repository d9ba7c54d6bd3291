// The protobuf wire format as Kubernetes' gogo-generated Unmarshal methods read it: varints of at
// most ten bytes, length-delimited spans checked against the enclosing message, unknown fields
// skipped (groups included). Errors carry the exact text those methods return, since the
// apiserver passes it through into its Status messages.

/** A decoding failure; the message is Go's err.Error() text. */
export class WireError extends Error {}

const ERR_EOF = 'unexpected EOF';
const ERR_OVERFLOW = 'proto: integer overflow';
const ERR_LENGTH = 'proto: negative length found during unmarshaling';
const ERR_END_GROUP = 'proto: unexpected end of group';

export const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

interface Tag {
  field: number; // int32(wire >> 3), as Go truncates it
  wireType: number;
  wire: bigint; // the whole key; gogo prints it in its "illegal tag" error
}

/** A read position inside one message's bytes, [pos, end). */
export class Cursor {
  constructor(
    readonly data: Uint8Array,
    public pos = 0,
    readonly end = data.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint; bits past the 64th are dropped, an eleventh byte overflows. */
  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 64n) throw new WireError(ERR_OVERFLOW);
      if (this.pos >= this.end) throw new WireError(ERR_EOF);
      const b = this.data[this.pos++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    return BigInt.asUintN(64, v);
  }

  tag(): Tag {
    const wire = this.varint();
    return { field: Number(BigInt.asIntN(32, wire >> 3n)), wireType: Number(wire & 7n), wire };
  }

  /** A length prefix; returns the [start, end) it covers and moves past it. */
  span(): [number, number] {
    const n = BigInt.asIntN(64, this.varint()); // Go reads it into an int
    if (n < 0n) throw new WireError(ERR_LENGTH);
    const start = this.pos;
    if (BigInt(start) + n > BigInt(this.end)) throw new WireError(ERR_EOF);
    this.pos = start + Number(n);
    return [start, this.pos];
  }

  bytes(): Uint8Array {
    const [s, e] = this.span();
    return this.data.subarray(s, e);
  }

  /** Go's string(bytes): invalid UTF-8 becomes U+FFFD when it is later written as JSON. */
  string(): string {
    return Buffer.from(this.bytes()).toString('utf8');
  }

  /** A sub-cursor over the next length-delimited span. */
  sub(): Cursor {
    const [s, e] = this.span();
    return new Cursor(this.data, s, e);
  }

  /** Skips the field whose key starts at `start` (skipGenerated), leaving pos after it. */
  skipField(start: number): void {
    const c = new Cursor(this.data, start, this.end);
    let depth = 0;
    while (c.pos < c.end) {
      const { wireType } = c.tag();
      switch (wireType) {
        case WIRE_VARINT:
          c.varint();
          break;
        case WIRE_FIXED64:
          c.pos += 8;
          break;
        case WIRE_BYTES: {
          const n = BigInt.asIntN(64, c.varint());
          if (n < 0n) throw new WireError(ERR_LENGTH);
          // Past the end is caught below, as gogo's caller checks iNdEx+skippy > l.
          c.pos = n > BigInt(c.end) ? c.end + 1 : c.pos + Number(n);
          break;
        }
        case WIRE_START_GROUP:
          depth++;
          break;
        case WIRE_END_GROUP:
          if (depth === 0) throw new WireError(ERR_END_GROUP);
          depth--;
          break;
        case WIRE_FIXED32:
          c.pos += 4;
          break;
        default:
          throw new WireError(`proto: illegal wireType ${wireType}`);
      }
      if (depth === 0) {
        if (c.pos > c.end) throw new WireError(ERR_EOF);
        this.pos = c.pos;
        return;
      }
    }
    throw new WireError(ERR_EOF);
  }
}
