#!/bin/bash
# Imitates a Megatron-LM launch script of April 2021
# (examples/pretrain_gpt_distributed_with_mp.sh at that time: the launcher,
# then pretrain_gpt.py with its arguments), set to the 39B GPT row of
# Narayanan et al., SC'21, Table 1: 48 layers, hidden 8192, 64 heads,
# tensor parallel 8, pipeline parallel 2, 512 A100 (64 DGX A100 nodes),
# global batch 1536, sequence 2048, fp16, activation checkpointing.  The
# micro-batch of 1 is the assumption of tests/validation/megatron-2021.csv.
CHECKPOINT_PATH=checkpoints/gpt_39b
DATA_PATH=my-gpt2_text_document

python -m torch.distributed.launch --nproc_per_node 8 --nnodes 64 \
       --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port 6000 \
       pretrain_gpt.py \
       --tensor-model-parallel-size 8 \
       --pipeline-model-parallel-size 2 \
       --num-layers 48 \
       --hidden-size 8192 \
       --num-attention-heads 64 \
       --micro-batch-size 1 \
       --global-batch-size 1536 \
       --seq-length 2048 \
       --max-position-embeddings 2048 \
       --train-iters 500000 \
       --lr-decay-iters 320000 \
       --save $CHECKPOINT_PATH \
       --load $CHECKPOINT_PATH \
       --data-path $DATA_PATH \
       --vocab-file gpt2-vocab.json \
       --merge-file gpt2-merges.txt \
       --tokenizer-type GPT2BPETokenizer \
       --data-impl mmap \
       --split 949,50,1 \
       --distributed-backend nccl \
       --lr 0.00015 \
       --lr-decay-style cosine \
       --min-lr 1.0e-5 \
       --weight-decay 1e-2 \
       --clip-grad 1.0 \
       --lr-warmup-fraction .01 \
       --checkpoint-activations \
       --log-interval 100 \
       --save-interval 10000 \
       --eval-interval 1000 \
       --eval-iters 10 \
       --fp16
