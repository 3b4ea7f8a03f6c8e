"""A two-layer bidirectional LSTM sentiment classifier over GloVe vectors, as MindSpore's RNN sentiment
tutorial and ModelZoo's lstm (aclImdb + GloVe) write it: a frozen ``nn.Embedding`` initialised from the
vectors, ``nn.LSTM(num_layers=2, bidirectional=True)``, a Dense over the last layer's final forward and
backward states, Adam and a ``value_and_grad`` train step. Run it with

    sporax run examples/sentiment_lstm_glove.py [--data-dir DIR --glove FILE] [--epochs 5]

DIR holds ``train.tsv`` and ``test.tsv`` (one ``<label>\\t<sentence>`` a line, label 0 negative, 1 positive);
FILE is a GloVe text file (``word v1 v2 ... vd`` a line, e.g. ``glove.6B.100d.txt``). Without them the script
writes a small synthetic set into ``--synthetic-dir`` and says so: a GloVe-format file of 57 words (sentiment
words lie along one direction) and short sentences labelled by their majority of positive or negative words.
Unknown words map to ``<unk>``, padding is ``<pad>`` (index 0) and the LSTM gets each sentence's length
(``seq_length``), so padding never reaches the final states. The same file runs on real MindSpore too.
"""

import argparse
import os
import re

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import nn, ops

POSITIVE = "good great excellent wonderful superb lovely fine brilliant enjoyable charming".split()
NEGATIVE = "bad awful terrible boring poor dull horrible weak clumsy tedious".split()
NEUTRAL = (
    "the a movie film plot actor actress story was is and but very quite really this it of with acting scene "
    "ending music director script cast i found thought rather somewhat overall performance dialogue camera "
    "there some"
).split()
OUT_OF_VOCABULARY = "popcorn sequel trailer cinema".split()  # in the sentences, not in the GloVe file


# ----------------------------------------------------------------------------------------------- data
def write_synthetic_sentiment(out_dir, dim=32, num_train=512, num_test=128, seed=0):
    """Write ``glove.synthetic.<dim>d.txt`` (GloVe's text format) and ``train.tsv``/``test.tsv``.
    Returns (data_dir, glove_file)."""
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    direction = rng.standard_normal(dim)
    direction /= np.linalg.norm(direction)
    glove = os.path.join(out_dir, f"glove.synthetic.{dim}d.txt")
    with open(glove, "w") as f:
        for word in NEUTRAL + POSITIVE + NEGATIVE:
            v = rng.standard_normal(dim) * 0.3
            v += direction * (1.0 if word in POSITIVE else -1.0 if word in NEGATIVE else 0.0)
            f.write(word + " " + " ".join(f"{x:.5f}" for x in v) + "\n")

    def sentences(path, n):
        with open(path, "w") as f:
            for _ in range(n):
                label = int(rng.integers(0, 2))
                major, minor = (POSITIVE, NEGATIVE) if label else (NEGATIVE, POSITIVE)
                words = list(rng.choice(NEUTRAL + OUT_OF_VOCABULARY, int(rng.integers(4, 12))))
                words += list(rng.choice(major, int(rng.integers(2, 4))))
                words += list(rng.choice(minor, int(rng.integers(0, 2))))
                rng.shuffle(words)
                f.write(f"{label}\t{' '.join(words).capitalize()}.\n")

    sentences(os.path.join(out_dir, "train.tsv"), num_train)
    sentences(os.path.join(out_dir, "test.tsv"), num_test)
    return out_dir, glove


def load_glove(path):
    """Vocabulary and embedding table from a GloVe text file; ``<pad>`` (zeros) and ``<unk>`` (the mean
    vector) come first."""
    words, vectors = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip().split(" ")
            words.append(parts[0])
            vectors.append(np.asarray(parts[1:], np.float32))
    table = np.stack(vectors)
    table = np.concatenate([np.zeros((1, table.shape[1]), np.float32), table.mean(0, keepdims=True), table])
    return {w: i for i, w in enumerate(["<pad>", "<unk>", *words])}, table


def tokenize(sentence):
    return re.findall(r"[a-z0-9']+", sentence.lower())


def encode(path, vocab, max_len):
    """``<label>\\t<sentence>`` lines -> (ids [N, max_len] int32, lengths [N] int32, labels [N] int32)."""
    ids, lengths, labels = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            label, sentence = line.rstrip("\n").split("\t", 1)
            tokens = [vocab.get(t, 1) for t in tokenize(sentence)][:max_len] or [1]
            ids.append(tokens + [0] * (max_len - len(tokens)))
            lengths.append(len(tokens))
            labels.append(int(label))
    return np.array(ids, np.int32), np.array(lengths, np.int32), np.array(labels, np.int32)


def create_dataset(path, vocab, max_len=24, batch_size=32, training=True):
    data = ds.NumpySlicesDataset(
        encode(path, vocab, max_len), column_names=["ids", "length", "label"], shuffle=training
    )
    return data.batch(batch_size, drop_remainder=training)


# -------------------------------------------------------------------------------------------- network
class SentimentNet(nn.Cell):
    """Embedding (frozen, from GloVe) -> 2-layer BiLSTM -> Dense on [h_fwd, h_bwd] of the last layer."""

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers=2, num_classes=2, weight=None, dropout=0.0):
        super().__init__()
        table = "normal" if weight is None else ms.Tensor(weight, ms.float32)
        self.embedding = nn.Embedding(vocab_size, embed_size, embedding_table=table)
        self.embedding.embedding_table.requires_grad = False
        self.encoder = nn.LSTM(
            embed_size,
            num_hiddens,
            num_layers=num_layers,
            has_bias=True,
            batch_first=True,
            dropout=dropout,
            bidirectional=True,
        )
        self.concat = ops.Concat(1)
        self.dropout = nn.Dropout(p=dropout)
        self.decoder = nn.Dense(num_hiddens * 2, num_classes)

    def construct(self, ids, seq_length):
        embeddings = self.embedding(ids)
        _, (h, _) = self.encoder(embeddings, seq_length=seq_length)
        encoding = self.concat((h[-2], h[-1]))  # the last layer's forward and backward final states
        return self.decoder(self.dropout(encoding))


# ------------------------------------------------------------------------------------------- training
def make_train_step(network, lr=0.01):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(network.trainable_params(), learning_rate=lr)

    def forward_fn(ids, length, label):
        return loss_fn(network(ids, length), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(ids, length, label):
        loss, grads = grad_fn(ids, length, label)
        optimizer(grads)
        return loss

    return train_step


def train_one_epoch(network, train_step, dataset):
    network.set_train(True)
    return [float(train_step(ids, length, label).asnumpy()) for ids, length, label in dataset.create_tuple_iterator()]


def evaluate(network, dataset):
    network.set_train(False)
    correct = total = 0
    for ids, length, label in dataset.create_tuple_iterator():
        pred = network(ids, length).argmax(1)
        correct += int((pred == label).sum().asnumpy())
        total += label.shape[0]
    return correct / total


def main():
    parser = argparse.ArgumentParser(description="BiLSTM sentiment classifier over GloVe vectors")
    parser.add_argument("--data-dir", default=None, help="folder with train.tsv and test.tsv")
    parser.add_argument("--glove", default=None, help="GloVe text file (word v1 ... vd)")
    parser.add_argument("--synthetic-dir", default="./sentiment_synthetic")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--max-len", type=int, default=24)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--ckpt", default="./sentiment_lstm.ckpt")
    parser.add_argument("--device-target", default="CPU")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ms.set_context(device_target=args.device_target)
    ms.set_seed(args.seed)
    ds.config.set_seed(args.seed)
    if (args.data_dir is None) != (args.glove is None):
        raise SystemExit("pass both --data-dir and --glove, or neither (synthetic data)")
    data_dir, glove = args.data_dir, args.glove
    if data_dir is None:
        data_dir, glove = write_synthetic_sentiment(args.synthetic_dir, seed=args.seed)
        print(f"No --data-dir/--glove given: training on a synthetic sentiment set written to {data_dir}.", flush=True)
    vocab, table = load_glove(glove)
    print(f"vocabulary: {len(vocab)} words, {table.shape[1]}-d vectors", flush=True)
    ds_train = create_dataset(os.path.join(data_dir, "train.tsv"), vocab, args.max_len, args.batch_size, True)
    ds_test = create_dataset(os.path.join(data_dir, "test.tsv"), vocab, args.max_len, 128, False)

    network = SentimentNet(len(vocab), table.shape[1], args.hidden, 2, 2, table, args.dropout)
    train_step = make_train_step(network, args.lr)
    print(f"epoch 0: test accuracy {evaluate(network, ds_test):.4f}", flush=True)
    for epoch in range(1, args.epochs + 1):
        losses = train_one_epoch(network, train_step, ds_train)
        acc = evaluate(network, ds_test)
        print(f"epoch {epoch}: loss {np.mean(losses):.4f}, test accuracy {acc:.4f}", flush=True)
    ms.save_checkpoint(network, args.ckpt)
    print(f"saved {args.ckpt}", flush=True)


if __name__ == "__main__":
    main()
