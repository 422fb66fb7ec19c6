"""Writes model.onnx and model.onnx_data: an embedding model whose weights live in an external data file, as
exports of models over 2 GB (and some smaller ones) do. Pure Python (protobuf's wire format by hand): the onnx
package is not needed.

Inputs input_ids and attention_mask [batch, tokens]; output sentence_embedding [batch, 3] = (number of unmasked
tokens) * W, W = [1, 2, 2] read from model.onnx_data: every text's vector normalises to [1/3, 2/3, 2/3].
"""
import struct

def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])

def field(num, value):
    if isinstance(value, int):
        return varint(num << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(num << 3 | 2) + varint(len(value)) + value

def shape(*dims):
    return b"".join(field(1, field(2, d) if isinstance(d, str) else field(1, d)) for d in dims)

def value_info(name, elem_type, *dims):
    return field(1, name) + field(2, field(1, field(1, elem_type) + field(2, shape(*dims))))

FLOAT, INT64 = 1, 7
weights = struct.pack("<3f", 1.0, 2.0, 2.0)
w = (field(1, 1) + field(1, 3) + field(2, FLOAT) + field(8, "W")
     + field(13, field(1, "location") + field(2, "model.onnx_data"))
     + field(13, field(1, "offset") + field(2, "0"))
     + field(13, field(1, "length") + field(2, str(len(weights))))
     + field(14, 1))
axes = field(1, 1) + field(2, INT64) + field(8, "axes") + field(9, struct.pack("<q", 1))
nodes = [
    field(1, "attention_mask") + field(2, "mask") + field(3, "cast") + field(4, "Cast")
    + field(5, field(1, "to") + field(3, FLOAT) + field(20, 2)),
    field(1, "mask") + field(1, "axes") + field(2, "count") + field(3, "sum") + field(4, "ReduceSum")
    + field(5, field(1, "keepdims") + field(3, 1) + field(20, 2)),
    field(1, "count") + field(1, "W") + field(2, "sentence_embedding") + field(3, "scale") + field(4, "Mul"),
]
graph = (b"".join(field(1, n) for n in nodes) + field(2, "external-weights") + field(5, w) + field(5, axes)
         + field(11, value_info("input_ids", INT64, "batch", "tokens"))
         + field(11, value_info("attention_mask", INT64, "batch", "tokens"))
         + field(12, value_info("sentence_embedding", FLOAT, "batch", 3)))
model = field(1, 8) + field(2, "polyrag-tests") + field(7, graph) + field(8, field(1, "") + field(2, 18))
open("model.onnx", "wb").write(model)
open("model.onnx_data", "wb").write(weights)
