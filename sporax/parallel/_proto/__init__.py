"""MindSpore's strategy-file schema (``node_strategy.proto``, MindSpore's interface format) and its protoc
output ``node_strategy_pb2.py``, registered in a private descriptor pool like the other generated modules.
Regenerate with grpcio-tools::

    cd sporax/parallel/_proto && python -m grpc_tools.protoc -I. --python_out=. node_strategy.proto
    sed -i 's/_descriptor_pool.Default()/_descriptor_pool.DescriptorPool()/' node_strategy_pb2.py
"""
