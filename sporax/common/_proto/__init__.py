"""MindSpore's published protobuf schemas (checkpoint.proto, mind_ir.proto) and the modules that
tools/gen_protos.py generates from them (do not edit the *_pb2.py files by hand)."""
