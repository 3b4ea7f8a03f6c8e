"""Record MindSpore 2.10's errors for bad dataset-pipeline arguments.

Run with real MindSpore (its own venv), from /tmp:

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_dataset_error_reference.py

Each case is one Python expression over ``ds`` (``mindspore.dataset``), ``np``, ``D`` (a tiny in-memory
dataset factory) and ``DIR`` (an existing, empty directory). The expression is evaluated; when it raises, the
exception's class name and message are recorded ("when": "call"). When it returns a dataset without raising,
the dataset is iterated once and what that raises is recorded ("when": "iter": MindSpore raises lazily). A case
that raises nothing is recorded with "cls": null. Messages have DIR replaced by ``<DIR>`` and object addresses
by ``0x?``. The output is tests/ut/dataset/fixtures/dataset_errors_ms210.json, replayed against sporax by
tests/ut/dataset/test_dataset_errors_ms210.py (which reads the expressions back from it).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "dataset", "fixtures", "dataset_errors_ms210.json")

# name -> expression (``S(sampler)``: a 4-row dataset drawing with ``sampler``, so that a sampler's lazy checks
# run). The test reads the expressions back from the fixture's "expr" fields.
CASES = {
    # batch
    "batch_size_zero": "D().batch(0)",
    "batch_size_neg": "D().batch(-2)",
    "batch_size_float": "D().batch(1.5)",
    "batch_size_str": "D().batch('2')",
    "batch_size_none": "D().batch(None)",
    "batch_drop_remainder_int": "D().batch(2, drop_remainder=1)",
    "batch_workers_zero": "D().batch(2, num_parallel_workers=0)",
    "batch_workers_float": "D().batch(2, num_parallel_workers=1.5)",
    "batch_callable_two_args": "D().batch(lambda a, b: 1)",
    # repeat
    "repeat_zero": "D().repeat(0)",
    "repeat_neg2": "D().repeat(-2)",
    "repeat_float": "D().repeat(1.5)",
    "repeat_str": "D().repeat('2')",
    "repeat_big": "D().repeat(2**31)",
    # take / skip
    "take_zero": "D().take(0)",
    "take_neg2": "D().take(-2)",
    "take_float": "D().take(1.5)",
    "take_none": "D().take(None)",
    "take_big": "D().take(2**31)",
    "skip_neg": "D().skip(-1)",
    "skip_float": "D().skip(1.5)",
    "skip_none": "D().skip(None)",
    # shuffle
    "shuffle_one": "D().shuffle(1)",
    "shuffle_zero": "D().shuffle(0)",
    "shuffle_float": "D().shuffle(2.5)",
    "shuffle_none": "D().shuffle(None)",
    "shuffle_big": "D().shuffle(2**31)",
    # map
    "map_workers_zero": "D().map(lambda x: x, num_parallel_workers=0)",
    "map_workers_neg": "D().map(lambda x: x, num_parallel_workers=-1)",
    "map_workers_str": "D().map(lambda x: x, num_parallel_workers='2')",
    "map_multiprocessing_int": "D().map(lambda x: x, python_multiprocessing=1)",
    "map_cache_int": "D().map(lambda x: x, cache=1)",
    "map_input_columns_int": "D().map(lambda x: x, input_columns=1)",
    "map_input_columns_list_int": "D().map(lambda x: x, input_columns=[1])",
    "map_output_columns_int": "D().map(lambda x: x, output_columns=1)",
    "map_input_columns_empty": "D().map(lambda x: x, input_columns=[])",
    "map_input_columns_dup": "D().map(lambda x: x, input_columns=['x', 'x'])",
    "map_operations_int": "D().map(1)",
    "map_operations_empty": "D().map([])",
    "map_callbacks_int": "D().map(lambda x: x, callbacks=1)",
    # project / rename
    "project_int": "D().project(1)",
    "project_list_int": "D().project([1])",
    "project_empty": "D().project([])",
    "project_dup": "D().project(['x', 'x'])",
    "rename_int": "D().rename(1, 'y')",
    "rename_out_int": "D().rename('x', 1)",
    "rename_len_mismatch": "D().rename(['x'], ['y', 'z'])",
    # concat / zip
    "concat_int": "D().concat(1)",
    "concat_list_int": "D().concat([1])",
    "zip_int": "D().zip(1)",
    "zip_list_int": "D().zip([1])",
    "ds_zip_not_tuple": "ds.zip(D())",
    "ds_zip_tuple_int": "ds.zip((D(), 1))",
    # split
    "split_not_list": "D().split(3)",
    "split_empty": "D().split([])",
    "split_zero_size": "D().split([0, 4])",
    "split_neg_size": "D().split([-1, 5])",
    "split_mixed": "D().split([1, 0.5])",
    "split_float_gt1": "D().split([1.5, 0.5])",
    "split_float_sum": "D().split([0.3, 0.3])",
    "split_int_sum": "D().split([1, 1])",
    "split_randomize_int": "D().split([2, 2], randomize=1)",
    # padded_batch
    "padded_batch_zero": "D().padded_batch(0)",
    "padded_batch_pad_info_list": "D().padded_batch(2, pad_info=[1])",
    "padded_batch_drop_int": "D().padded_batch(2, drop_remainder=1)",
    # bucket_batch_by_length
    "bucket_columns_int": "D().bucket_batch_by_length(1, [2], [1, 1])",
    "bucket_columns_empty": "D().bucket_batch_by_length([], [2], [1, 1])",
    "bucket_boundaries_empty": "D().bucket_batch_by_length(['x'], [], [1])",
    "bucket_boundaries_zero": "D().bucket_batch_by_length(['x'], [0], [1, 1])",
    "bucket_boundaries_unsorted": "D().bucket_batch_by_length(['x'], [3, 2], [1, 1, 1])",
    "bucket_sizes_len": "D().bucket_batch_by_length(['x'], [2], [1])",
    "bucket_sizes_zero": "D().bucket_batch_by_length(['x'], [2], [0, 1])",
    "bucket_boundaries_float": "D().bucket_batch_by_length(['x'], [2.5], [1, 1])",
    "bucket_fn_int": "D().bucket_batch_by_length(['x'], [2], [1, 1], element_length_function=1)",
    # filter
    "filter_predicate_int": "D().filter(1)",
    "filter_workers_zero": "D().filter(lambda x: True, num_parallel_workers=0)",
    "filter_input_columns_int": "D().filter(lambda x: True, input_columns=1)",
    # save
    "save_num_files_zero": "D().save(os.path.join(DIR, 'a.mindrecord'), num_files=0)",
    "save_num_files_big": "D().save(os.path.join(DIR, 'a.mindrecord'), num_files=1001)",
    "save_num_files_float": "D().save(os.path.join(DIR, 'a.mindrecord'), num_files=1.5)",
    "save_file_type": "D().save(os.path.join(DIR, 'a.mindrecord'), file_type='tfrecord')",
    "save_file_name_int": "D().save(1)",
    # device_que / to_device
    "device_que_send_epoch_end_int": "D().device_que(send_epoch_end=1)",
    "device_que_create_info_int": "D().device_que(create_data_info_queue=1)",
    "to_device_send_epoch_end_int": "D().to_device(send_epoch_end=1)",
    # iterators
    "tuple_iter_num_epochs_zero": "D().create_tuple_iterator(num_epochs=0)",
    "tuple_iter_num_epochs_neg2": "D().create_tuple_iterator(num_epochs=-2)",
    "tuple_iter_num_epochs_float": "D().create_tuple_iterator(num_epochs=1.5)",
    "tuple_iter_output_numpy_int": "D().create_tuple_iterator(output_numpy=1)",
    "tuple_iter_columns_int": "D().create_tuple_iterator(columns=1)",
    "tuple_iter_do_copy_int": "D().create_tuple_iterator(do_copy=1)",
    "dict_iter_num_epochs_zero": "D().create_dict_iterator(num_epochs=0)",
    "dict_iter_num_epochs_str": "D().create_dict_iterator(num_epochs='1')",
    "dict_iter_output_numpy_int": "D().create_dict_iterator(output_numpy=1)",
    # NumpySlicesDataset
    "nsd_num_samples_neg": "ds.NumpySlicesDataset([1, 2], num_samples=-1)",
    "nsd_num_samples_float": "ds.NumpySlicesDataset([1, 2], num_samples=1.5)",
    "nsd_shuffle_int": "ds.NumpySlicesDataset([1, 2], shuffle=1)",
    "nsd_shards_no_id": "ds.NumpySlicesDataset([1, 2], num_shards=2)",
    "nsd_id_no_shards": "ds.NumpySlicesDataset([1, 2], shard_id=0)",
    "nsd_shard_id_range": "ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id=2)",
    "nsd_num_shards_zero": "ds.NumpySlicesDataset([1, 2], num_shards=0, shard_id=0)",
    "nsd_shard_id_neg": "ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id=-1)",
    "nsd_column_names_int": "ds.NumpySlicesDataset([1, 2], column_names=1)",
    "nsd_column_names_list_int": "ds.NumpySlicesDataset([1, 2], column_names=[1])",
    "nsd_workers_zero": "ds.NumpySlicesDataset([1, 2], num_parallel_workers=0)",
    "nsd_data_int": "ds.NumpySlicesDataset(1)",
    # GeneratorDataset
    "gen_source_int": "ds.GeneratorDataset(1, ['x'])",
    "gen_column_names_none": "ds.GeneratorDataset([(np.array(1),)])",
    "gen_column_names_int": "ds.GeneratorDataset([(np.array(1),)], 1)",
    "gen_column_names_list_int": "ds.GeneratorDataset([(np.array(1),)], [1])",
    "gen_num_samples_neg": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_samples=-1)",
    "gen_num_samples_float": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_samples=1.5)",
    "gen_shuffle_int": "ds.GeneratorDataset([(np.array(1),)], ['x'], shuffle=1)",
    "gen_workers_zero": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_parallel_workers=0)",
    "gen_workers_str": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_parallel_workers='1')",
    "gen_shards_no_id": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_shards=2)",
    "gen_shard_id_range": "ds.GeneratorDataset([(np.array(1),)], ['x'], num_shards=2, shard_id=3)",
    "gen_max_rowsize_neg": "ds.GeneratorDataset([(np.array(1),)], ['x'], max_rowsize=-2)",
    "gen_max_rowsize_str": "ds.GeneratorDataset([(np.array(1),)], ['x'], max_rowsize='1')",
    "gen_multiprocessing_int": "ds.GeneratorDataset([(np.array(1),)], ['x'], python_multiprocessing=1)",
    "gen_sampler_and_shuffle": "ds.GeneratorDataset([(np.array(1),)], ['x'], sampler=ds.SequentialSampler(), shuffle=True)",
    "gen_sampler_int": "ds.GeneratorDataset([(np.array(1),)], ['x'], sampler=1)",
    # folder sources
    "mnist_dir_missing": "ds.MnistDataset(os.path.join(DIR, 'nope'))",
    "mnist_dir_int": "ds.MnistDataset(1)",
    "mnist_usage_bad": "ds.MnistDataset(DIR, usage='bad')",
    "mnist_num_samples_neg": "ds.MnistDataset(DIR, num_samples=-1)",
    "mnist_workers_zero": "ds.MnistDataset(DIR, num_parallel_workers=0)",
    "mnist_shuffle_int": "ds.MnistDataset(DIR, shuffle=1)",
    "mnist_shards_no_id": "ds.MnistDataset(DIR, num_shards=2)",
    "mnist_sampler_and_shuffle": "ds.MnistDataset(DIR, sampler=ds.SequentialSampler(), shuffle=True)",
    "cifar10_usage_bad": "ds.Cifar10Dataset(DIR, usage='bad')",
    "cifar10_num_samples_float": "ds.Cifar10Dataset(DIR, num_samples=1.5)",
    "cifar10_shard_id_range": "ds.Cifar10Dataset(DIR, num_shards=2, shard_id=2)",
    "cifar10_dir_missing": "ds.Cifar10Dataset(os.path.join(DIR, 'nope'))",
    "imagefolder_extensions_int": "ds.ImageFolderDataset(DIR, extensions=1)",
    "imagefolder_class_indexing_list": "ds.ImageFolderDataset(DIR, class_indexing=[1])",
    "imagefolder_decode_int": "ds.ImageFolderDataset(DIR, decode=1)",
    "imagefolder_num_samples_neg": "ds.ImageFolderDataset(DIR, num_samples=-1)",
    "imagefolder_dir_missing": "ds.ImageFolderDataset(os.path.join(DIR, 'nope'))",
    # samplers
    "seq_start_neg": "S(ds.SequentialSampler(start_index=-1))",
    "seq_start_float": "ds.SequentialSampler(start_index=1.5)",
    "seq_num_samples_neg": "ds.SequentialSampler(num_samples=-1)",
    "seq_num_samples_float": "ds.SequentialSampler(num_samples=1.5)",
    "random_replacement_int": "ds.RandomSampler(replacement=1)",
    "random_num_samples_neg": "ds.RandomSampler(num_samples=-1)",
    "random_num_samples_str": "ds.RandomSampler(num_samples='1')",
    "dist_num_shards_zero": "S(ds.DistributedSampler(0, 0))",
    "dist_num_shards_float": "ds.DistributedSampler(1.5, 0)",
    "dist_shard_id_range": "S(ds.DistributedSampler(2, 2))",
    "dist_shard_id_neg": "S(ds.DistributedSampler(2, -1))",
    "dist_shuffle_int": "ds.DistributedSampler(2, 0, shuffle=1)",
    "dist_num_samples_neg": "ds.DistributedSampler(2, 0, num_samples=-1)",
    "dist_offset_neg2": "S(ds.DistributedSampler(2, 0, offset=-2))",
    "dist_offset_big": "S(ds.DistributedSampler(2, 0, offset=3))",
    "subset_random_int": "S(ds.SubsetRandomSampler(1))",
    "subset_random_floats": "ds.SubsetRandomSampler([0.5, 1.5])",
    "subset_random_num_samples_neg": "ds.SubsetRandomSampler([0, 1], num_samples=-1)",
    "subset_int": "S(ds.SubsetSampler(1))",
    "subset_str_items": "ds.SubsetSampler(['a'])",
    "subset_num_samples_float": "ds.SubsetSampler([0, 1], num_samples=1.5)",
    "weighted_not_list": "S(ds.WeightedRandomSampler(1, 2))",
    "weighted_empty": "S(ds.WeightedRandomSampler([], 2))",
    "weighted_neg": "S(ds.WeightedRandomSampler([-1.0, 1.0], 2))",
    "weighted_all_zero": "S(ds.WeightedRandomSampler([0.0, 0.0], 2))",
    "weighted_str_item": "ds.WeightedRandomSampler(['a'], 2)",
    "weighted_num_samples_zero": "S(ds.WeightedRandomSampler([1.0], 0))",
    "weighted_num_samples_none": "S(ds.WeightedRandomSampler([1.0], None))",
    "weighted_replacement_int": "ds.WeightedRandomSampler([1.0], 1, replacement=1)",
    "pk_num_val_float": "ds.PKSampler(1.5)",
    "pk_num_class_set": "ds.PKSampler(2, num_class=3)",
    "pk_shuffle_int": "ds.PKSampler(2, shuffle=1)",
    "pk_class_column_int": "ds.PKSampler(2, class_column=1)",
    "pk_num_samples_neg": "ds.PKSampler(2, num_samples=-1)",
    "add_child_int": "ds.SequentialSampler().add_child(1)",
    # config setters
    "config_seed_neg": "ds.config.set_seed(-1)",
    "config_seed_str": "ds.config.set_seed('1')",
    "config_seed_big": "ds.config.set_seed(2**32)",
    "config_workers_zero": "ds.config.set_num_parallel_workers(0)",
    "config_workers_str": "ds.config.set_num_parallel_workers('1')",
    "config_prefetch_zero": "ds.config.set_prefetch_size(0)",
    "config_prefetch_float": "ds.config.set_prefetch_size(1.5)",
    "config_monitor_neg": "ds.config.set_monitor_sampling_interval(-1)",
    "config_monitor_str": "ds.config.set_monitor_sampling_interval('1')",
    "config_callback_timeout_zero": "ds.config.set_callback_timeout(0)",
    "config_callback_timeout_str": "ds.config.set_callback_timeout('1')",
    "config_auto_num_workers_int": "ds.config.set_auto_num_workers(1)",
    "config_shared_mem_int": "ds.config.set_enable_shared_mem(1)",
    "config_sending_batches_neg": "ds.config.set_sending_batches(-1)",
    "config_sending_batches_str": "ds.config.set_sending_batches('1')",
    "config_debug_mode_int": "ds.config.set_debug_mode(1)",
    "config_numa_int": "ds.config.set_numa_enable(1)",
    "config_autotune_int": "ds.config.set_enable_autotune(1)",
    "config_autotune_interval_neg": "ds.config.set_autotune_interval(-1)",
    "config_mp_timeout_zero": "ds.config.set_multiprocessing_timeout_interval(0)",
    "config_mp_timeout_str": "ds.config.set_multiprocessing_timeout_interval('1')",
    "config_watchdog_int": "ds.config.set_enable_watchdog(1)",
    "config_fast_recovery_int": "ds.config.set_fast_recovery(1)",
    "config_error_samples_mode_int": "ds.config.set_error_samples_mode(1)",
    "config_iterator_mode_int": "ds.config.set_iterator_mode(1)",
    # a bool given for an int
    "repeat_bool": "D().repeat(True)",
    "take_bool": "D().take(True)",
    "skip_bool": "D().skip(False)",
    "shuffle_bool": "D().shuffle(True)",
    "map_workers_bool": "D().map(lambda x: x, num_parallel_workers=True)",
    "nsd_num_samples_bool": "ds.NumpySlicesDataset([1, 2], num_samples=True)",
    "seq_num_samples_bool": "ds.SequentialSampler(num_samples=True)",
    "config_seed_bool": "ds.config.set_seed(True)",
    "save_num_files_bool": "D().save(os.path.join(DIR, 'a.mindrecord'), num_files=True)",
    "iter_num_epochs_bool": "D().create_tuple_iterator(num_epochs=True)",
    # more source, batch and map arguments
    "mnist_shard_id_float": "ds.MnistDataset(DIR, num_shards=2, shard_id=1.5)",
    "mnist_num_shards_zero": "ds.MnistDataset(DIR, num_shards=0, shard_id=0)",
    "mnist_id_no_shards": "ds.MnistDataset(DIR, shard_id=0)",
    "mnist_sampler_and_shards": "ds.MnistDataset(DIR, sampler=ds.SequentialSampler(), num_shards=2, shard_id=0)",
    "mnist_workers_str": "ds.MnistDataset(DIR, num_parallel_workers='1')",
    "mnist_num_samples_float": "ds.MnistDataset(DIR, num_samples=1.5)",
    "cifar10_dir_empty_str": "ds.Cifar10Dataset('')",
    "nsd_column_names_len": "ds.NumpySlicesDataset({'a': [1], 'b': [2]}, column_names=['a'])",
    "nsd_data_empty": "ds.NumpySlicesDataset([])",
    "nsd_column_names_empty_str": "ds.NumpySlicesDataset([1, 2], column_names='')",
    "gen_column_names_dup": "ds.GeneratorDataset([(np.array(1), np.array(2))], ['x', 'x'])",
    "batch_per_batch_map_int": "D().batch(2, per_batch_map=1)",
    "batch_input_columns_int": "D().batch(2, per_batch_map=lambda x, i: (x,), input_columns=1)",
    "batch_multiprocessing_int": "D().batch(2, python_multiprocessing=1)",
    "map_column_empty_str": "D().map(lambda x: x, input_columns='')",
    "map_max_rowsize_str": "D().map(lambda x: x, max_rowsize='1')",
    "filter_input_columns_dup": "D().filter(lambda x: True, input_columns=['x', 'x'])",
    "rename_dup": "D().rename(['x', 'x'], ['y', 'z'])",
    "project_none": "D().project(None)",
    "concat_list_mixed": "D().concat([D(), 'a'])",
    "ds_zip_one": "ds.zip((D(),))",
    "bucket_pad_bool_int": "D().bucket_batch_by_length(['x'], [2], [1, 1], pad_to_bucket_boundary=1)",
    "bucket_sizes_float": "D().bucket_batch_by_length(['x'], [2], [1.5, 1])",
    "sync_wait_num_batch_zero": "D().sync_wait('c', num_batch=0)",
    "sync_wait_condition_int": "D().sync_wait(1)",
    "dict_iter_num_epochs_none": "D().create_dict_iterator(num_epochs=None)",
}


def normalize(message: str, data_dir: str) -> str:
    """The message with the case directory as ``<DIR>``, object addresses as ``0x?`` and the machine's CPU count
    (the upper bound of ``num_parallel_workers``) as ``<CPUS>``."""
    message = message.replace(data_dir, "<DIR>")
    message = message.replace(f"between 1 and {os.cpu_count()}!", "between 1 and <CPUS>!")
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", message)


def run_case(expr: str, env: dict) -> dict:
    """Evaluate one case, iterating a returned dataset once: the class name, the message and when it raised."""
    try:
        obj = eval(expr, env)  # noqa: S307 - the expressions are this file's own table
    except Exception as e:  # noqa: BLE001 - recording whatever MindSpore raises
        return {"cls": type(e).__name__, "msg": str(e), "when": "call"}
    if hasattr(obj, "create_tuple_iterator"):
        try:
            for _ in obj.create_tuple_iterator(num_epochs=1, output_numpy=True):
                pass
        except Exception as e:  # noqa: BLE001
            return {"cls": type(e).__name__, "msg": str(e), "when": "iter"}
    return {"cls": None, "msg": None, "when": None}


def make_env(ds, np_mod, data_dir: str) -> dict:
    """The names a case expression may use."""

    def tiny():
        return ds.NumpySlicesDataset({"x": np_mod.arange(4, dtype=np_mod.int32)}, shuffle=False)

    def with_sampler(sampler):
        return ds.NumpySlicesDataset({"x": np_mod.arange(4, dtype=np_mod.int32)}, sampler=sampler)

    return {"ds": ds, "np": np_mod, "os": os, "D": tiny, "S": with_sampler, "DIR": data_dir}


def main() -> None:
    import mindspore
    import mindspore.dataset as ds
    import numpy as np

    assert mindspore.__version__.startswith("2.10"), mindspore.__version__
    out = {}
    with tempfile.TemporaryDirectory() as data_dir:
        env = make_env(ds, np, data_dir)
        for name, expr in CASES.items():
            rec = run_case(expr, env)
            if rec["msg"] is not None:
                rec["msg"] = normalize(rec["msg"], data_dir)
            out[name] = {"expr": expr, **rec}
            print(name, rec, file=sys.stderr)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
