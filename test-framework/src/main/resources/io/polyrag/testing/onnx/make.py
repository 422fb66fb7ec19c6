"""Writes the small ONNX models the model tests run (python3 make.py; needs the onnx package).

Both read a BERT-style pair encoding ([CLS] query [SEP] passage [SEP], token_type_ids 1 on the passage side) and
score a pair by how many of the passage's word tokens also occur in the query: a real, if crude, model that reads
query and passage together, so a test can predict every score. Ids below 999 are BERT's special and unused tokens
and never count; padding is masked out.

  overlap-1.onnx  logits [batch, 1]: the count
  overlap-2.onnx  logits [batch, 2]: [-count, count] (the "not relevant" / "relevant" layout)
  positions.onnx  inputs input_ids, attention_mask, position_ids; logits [batch, 1]: the sum of the unmasked
                  tokens' positions (n tokens numbered from 0 give n(n-1)/2)
  extra-input.onnx  positions.onnx with one more input, past_key_values.0.key, that no encoder export has
  tokens.onnx     an "embedding model" whose token vectors are [position, token id]: every pooling of them can
                  be worked out by hand (inputs input_ids, attention_mask, position_ids; output [batch, tokens, 2])
"""
import onnx
from onnx import TensorProto, helper

def finish(nodes, name, inputs, out):
    m = helper.make_model(helper.make_graph(nodes, name, inputs, [out]),
                          opset_imports=[helper.make_opsetid("", 18)], producer_name="polyrag-tests")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m

def model(two_columns):
    B, N = "batch", "tokens"
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, [B, N])
              for n in ("input_ids", "attention_mask", "token_type_ids")]
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, [B, 2 if two_columns else 1])
    c = lambda name, v, t=TensorProto.INT64: helper.make_node(
        "Constant", [], [name], value=helper.make_tensor(name, t, [len(v)] if isinstance(v, list) else [], v if isinstance(v, list) else [v]))
    nodes = [
        c("one", 1), c("floor", 998), c("ax1", [1]), c("ax2", [2]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["token_type_ids"], ["type_b"], to=TensorProto.FLOAT),
        helper.make_node("Sub", ["one", "token_type_ids"], ["type_a_i"]),
        helper.make_node("Cast", ["type_a_i"], ["type_a"], to=TensorProto.FLOAT),
        helper.make_node("Greater", ["input_ids", "floor"], ["is_word_b"]),
        helper.make_node("Cast", ["is_word_b"], ["is_word"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["mask", "is_word"], ["word"]),
        helper.make_node("Mul", ["word", "type_a"], ["query_word"]),
        helper.make_node("Mul", ["word", "type_b"], ["passage_word"]),
        helper.make_node("Unsqueeze", ["input_ids", "ax2"], ["ids_i"]),
        helper.make_node("Unsqueeze", ["input_ids", "ax1"], ["ids_j"]),
        helper.make_node("Equal", ["ids_i", "ids_j"], ["same_b"]),
        helper.make_node("Cast", ["same_b"], ["same"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["query_word", "ax1"], ["query_word_j"]),
        helper.make_node("Mul", ["same", "query_word_j"], ["same_as_query"]),
        helper.make_node("ReduceMax", ["same_as_query", "ax2"], ["in_query"], keepdims=0),
        helper.make_node("Mul", ["in_query", "passage_word"], ["counted"]),
        helper.make_node("ReduceSum", ["counted", "ax1"], ["count" if two_columns else "logits"], keepdims=1),
    ]
    if two_columns:
        nodes += [helper.make_node("Neg", ["count"], ["not_count"]),
                  helper.make_node("Concat", ["not_count", "count"], ["logits"], axis=1)]
    return finish(nodes, "overlap", inputs, out)

def positions(extra):
    B, N = "batch", "tokens"
    names = ["input_ids", "attention_mask", "position_ids"] + (["past_key_values.0.key"] if extra else [])
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, [B, N]) for n in names]
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, [B, 1])
    nodes = [
        helper.make_node("Constant", [], ["ax1"], value=helper.make_tensor("ax1", TensorProto.INT64, [1], [1])),
        helper.make_node("Mul", ["position_ids", "attention_mask"], ["kept"]),
        helper.make_node("Cast", ["kept"], ["kept_f"], to=TensorProto.FLOAT),
        helper.make_node("ReduceSum", ["kept_f", "ax1"], ["logits"], keepdims=1),
    ]
    return finish(nodes, "positions", inputs, out)

def tokens():
    B, N = "batch", "tokens"
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, [B, N])
              for n in ("input_ids", "attention_mask", "position_ids")]
    out = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [B, N, 2])
    nodes = [
        helper.make_node("Constant", [], ["ax2"], value=helper.make_tensor("ax2", TensorProto.INT64, [1], [2])),
        helper.make_node("Cast", ["position_ids"], ["pos"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["input_ids"], ["ids"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["pos", "ax2"], ["pos3"]),
        helper.make_node("Unsqueeze", ["ids", "ax2"], ["ids3"]),
        helper.make_node("Concat", ["pos3", "ids3"], ["last_hidden_state"], axis=2),
    ]
    return finish(nodes, "tokens", inputs, out)

onnx.save(model(False), "overlap-1.onnx")
onnx.save(model(True), "overlap-2.onnx")
onnx.save(positions(False), "positions.onnx")
onnx.save(positions(True), "extra-input.onnx")
onnx.save(tokens(), "tokens.onnx")
