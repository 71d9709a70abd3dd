#!/bin/bash
# Imitates a Megatron-Core pretraining script for Llama 3 8B in the manner
# of Megatron-LM's examples/llama (torchrun, then pretrain_gpt.py): the
# architecture of Meta's Llama 3 8B (32 layers, hidden 4096, 32 heads, 8
# KV groups, FFN 14336, RoPE, RMSNorm, SwiGLU, untied embeddings) on 4
# nodes of 8 GPUs, sequence 8192, global batch 128, bf16, the distributed
# optimizer with overlapped gradient reduction, Transformer Engine.
# The vocabulary (128,256 tokens) is the tokenizer's: it comes from
# --hf-config or --vocab-size, not from these arguments.
torchrun --nproc_per_node 8 --nnodes 4 --node_rank ${NODE_RANK} \
    --master_addr ${MASTER_ADDR} --master_port 6000 \
    pretrain_gpt.py \
    --use-mcore-models \
    --transformer-impl transformer_engine \
    --num-layers 32 \
    --hidden-size 4096 \
    --ffn-hidden-size 14336 \
    --num-attention-heads 32 \
    --group-query-attention \
    --num-query-groups 8 \
    --kv-channels 128 \
    --seq-length 8192 \
    --max-position-embeddings 8192 \
    --position-embedding-type rope \
    --rotary-base 500000 \
    --normalization RMSNorm \
    --swiglu \
    --disable-bias-linear \
    --untie-embeddings-and-output-weights \
    --tokenizer-type HuggingFaceTokenizer \
    --tokenizer-model meta-llama/Meta-Llama-3-8B \
    --tensor-model-parallel-size 2 \
    --pipeline-model-parallel-size 1 \
    --context-parallel-size 1 \
    --sequence-parallel \
    --use-distributed-optimizer \
    --overlap-grad-reduce \
    --overlap-param-gather \
    --micro-batch-size 1 \
    --global-batch-size 128 \
    --train-iters 1000 \
    --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --lr-warmup-iters 100 \
    --weight-decay 0.1 --adam-beta1 0.9 --adam-beta2 0.95 --clip-grad 1.0 \
    --bf16 \
    --recompute-activations \
    --data-path ${DATA_PATH} --split 99,1,0 \
    --log-interval 1 --save-interval 1000 --eval-interval 1000 --eval-iters 0
