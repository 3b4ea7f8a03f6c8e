"""A small character-level Transformer language model (GPT-style: token and learned position embeddings,
pre-norm ``nn.TransformerEncoder`` layers under a causal mask, a Dense head) trained with
``nn.TrainOneStepCell`` and ``nn.AdamWeightDecay``. Run it with

    sporax run examples/transformer_lm.py [--text FILE] [--steps 300] [--d-model 128] [--block-size 64]

Without ``--text`` it trains on the text shipped with sporax (``sporax/data/shakespeare/coriolanus.txt``, 90 KB
of *Coriolanus*, public domain); the last 10 % of the text is held out. Every ``--eval-every`` steps it prints
the held-out loss (nats per character) and next-character accuracy, and at the end a greedy sample. The same
file runs on real MindSpore too (pass ``--text`` there: the default file is found beside sporax).
"""

import argparse
import os

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import nn


# ----------------------------------------------------------------------------------------------- data
def default_text():
    """The text shipped with sporax (under `sporax run`, `mindspore` is sporax)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for base in (os.path.dirname(ms.__file__), os.path.join(here, os.pardir, "sporax")):
        path = os.path.join(base, "data", "shakespeare", "coriolanus.txt")
        if os.path.isfile(path):
            return path
    raise SystemExit("No text: pass --text FILE.")


class CharVocab:
    def __init__(self, text):
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, text):
        return np.array([self.index[c] for c in text], np.int32)

    def decode(self, ids):
        return "".join(self.chars[int(i)] for i in ids)


def windows(ids, block_size, stride=None):
    """(inputs, targets) [N, block_size] int32: windows of block_size + 1 ids, shifted by one."""
    stride = stride or block_size
    starts = np.arange(0, len(ids) - block_size - 1, stride)
    seqs = np.stack([ids[s : s + block_size + 1] for s in starts])
    return seqs[:, :-1].copy(), seqs[:, 1:].copy()


def create_dataset(ids, block_size, batch_size, training=True, stride=None):
    data = ds.NumpySlicesDataset(windows(ids, block_size, stride), column_names=["ids", "targets"], shuffle=training)
    return data.batch(batch_size, drop_remainder=True)


# -------------------------------------------------------------------------------------------- network
class TransformerLM(nn.Cell):
    def __init__(self, vocab_size, d_model=128, nhead=4, num_layers=2, dim_feedforward=512, block_size=64, dropout=0.1):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, d_model)
        self.pos_emb = nn.Embedding(block_size, d_model)
        self.dropout = nn.Dropout(p=dropout)
        layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward, dropout, activation="gelu", batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers, norm=nn.LayerNorm((d_model,)))
        self.head = nn.Dense(d_model, vocab_size)
        self.positions = ms.Tensor(np.arange(block_size, dtype=np.int32))
        # True above the diagonal: position t attends to positions <= t only
        self.causal_mask = ms.Tensor(np.triu(np.ones((block_size, block_size), np.bool_), 1))

    def construct(self, ids):
        seq_len = ids.shape[1]
        x = self.tok_emb(ids) + self.pos_emb(self.positions[:seq_len])
        x = self.encoder(self.dropout(x), src_mask=self.causal_mask[:seq_len, :seq_len])
        return self.head(x)


class LMWithLoss(nn.Cell):
    """Mean next-token cross-entropy over every position."""

    def __init__(self, network):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss = nn.CrossEntropyLoss()

    def construct(self, ids, targets):
        logits = self.network(ids)
        return self.loss(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def build(vocab_size, d_model=128, nhead=4, num_layers=2, dim_feedforward=512, block_size=64, dropout=0.1, lr=3e-3):
    network = TransformerLM(vocab_size, d_model, nhead, num_layers, dim_feedforward, block_size, dropout)
    decay = [p for p in network.trainable_params() if p.ndim > 1]  # matrices; not biases, norms
    other = [p for p in network.trainable_params() if p.ndim <= 1]
    params = [{"params": decay, "weight_decay": 0.01}, {"params": other, "weight_decay": 0.0}]
    optimizer = nn.AdamWeightDecay(params, learning_rate=lr, beta1=0.9, beta2=0.99)
    train_net = nn.TrainOneStepCell(LMWithLoss(network), optimizer)
    return network, train_net


def evaluate(network, dataset):
    """Held-out (mean loss, next-character accuracy) in eval mode."""
    network.set_train(False)
    loss_fn = nn.CrossEntropyLoss(reduction="sum")
    total_loss = correct = count = 0.0
    for ids, targets in dataset.create_tuple_iterator():
        logits = network(ids).reshape(-1, network.head.out_channels)
        targets = targets.reshape(-1)
        total_loss += float(loss_fn(logits, targets).asnumpy())
        correct += float((logits.argmax(-1) == targets).sum().asnumpy())
        count += targets.shape[0]
    return total_loss / count, correct / count


def generate(network, vocab, prompt, length, block_size):
    """Greedy continuation; the context is right-padded to block_size (one shape; the mask hides the pad)."""
    network.set_train(False)
    ids = list(vocab.encode(prompt))
    for _ in range(length):
        context = ids[-block_size:]
        padded = np.zeros((1, block_size), np.int32)
        padded[0, : len(context)] = context
        logits = network(ms.Tensor(padded))
        ids.append(int(logits[0, len(context) - 1].argmax().asnumpy()))
    return vocab.decode(ids)


def train(train_net, dataset, steps, on_step=None):
    """Run `steps` steps over `dataset` (repeated as needed); returns the losses."""
    losses = []
    train_net.set_train(True)
    while len(losses) < steps:
        for ids, targets in dataset.create_tuple_iterator(num_epochs=1):
            losses.append(float(train_net(ids, targets).asnumpy()))
            if on_step is not None:
                on_step(len(losses), losses[-1])
            if len(losses) == steps:
                break
    return losses


def main():
    parser = argparse.ArgumentParser(description="character-level Transformer language model")
    parser.add_argument("--text", default=None, help="a text file (default: the Shakespeare shipped with sporax)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--block-size", type=int, default=64)
    parser.add_argument("--d-model", type=int, default=128)
    parser.add_argument("--nhead", type=int, default=4)
    parser.add_argument("--num-layers", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--ckpt", default="./transformer_lm.ckpt")
    parser.add_argument("--device-target", default="CPU")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device_target)
    ms.set_seed(args.seed)
    ds.config.set_seed(args.seed)
    path = args.text or default_text()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    vocab = CharVocab(text)
    ids = vocab.encode(text)
    split = int(len(ids) * 0.9)
    print(f"{path}: {len(text)} characters, {len(vocab)} distinct; training on the first 90 %", flush=True)
    ds_train = create_dataset(ids[:split], args.block_size, args.batch_size, training=True, stride=args.block_size // 2)
    ds_eval = create_dataset(ids[split:], args.block_size, args.batch_size, training=False)

    network, train_net = build(
        len(vocab), args.d_model, args.nhead, args.num_layers, 4 * args.d_model, args.block_size, args.dropout, args.lr
    )
    loss, acc = evaluate(network, ds_eval)
    print(f"step 0: held-out loss {loss:.4f}, next-character accuracy {acc:.4f}", flush=True)

    def on_step(step, step_loss):
        if step % args.eval_every == 0 or step == args.steps:
            loss, acc = evaluate(network, ds_eval)
            print(
                f"step {step}: train loss {step_loss:.4f}, held-out loss {loss:.4f}, next-character accuracy {acc:.4f}",
                flush=True,
            )
            train_net.set_train(True)

    train(train_net, ds_train, args.steps, on_step)
    ms.save_checkpoint(network, args.ckpt)
    print(f"saved {args.ckpt}", flush=True)
    print("sample: " + repr(generate(network, vocab, "MENENIUS:\n", 80, args.block_size)), flush=True)


if __name__ == "__main__":
    main()
