"""Probe a large list of image URLs on a Dask cluster, and write what each one is.

Each partition of the list runs ``imageprobe.probe_urls`` (its own `jobs` threads, each keeping
its connections for the next URL on the same host); Dask spreads the partitions over the
cluster's workers. Nothing here is a scheduler: the same code runs on a laptop's LocalCluster
and on a real cluster (pass the scheduler's address).

    pip install pyimageprobe "dask[distributed,dataframe]" pyarrow
    python dask_probe.py urls.txt results.parquet                       # LocalCluster
    python dask_probe.py urls.parquet results.jsonl --column url --scheduler tcp://10.0.0.5:8786

Input: a text file with one URL per line (blank lines ignored; `*.gz` fine; a glob or a folder
of them too), or Parquet (a file, a folder or a glob) with the URLs in `--column`.
Output: a Parquet dataset (a folder, one file per partition), or JSON Lines when the name ends
in `.jsonl` (a folder of `part-*.jsonl`). One row per URL, in input order within each
partition: `url`, `ok`, then every field of ``imageprobe.ImageInfo`` and ``imageprobe.Failure``
(`format`, `width`, `height`, `orientation`, ..., `error`, `message`, `status`,
`bytes_transferred`, `requests`), null where it doesn't apply; a tuple field as a column per
part (`dpi_x`, `dpi_y`; `cicp_primaries`, `cicp_transfer`, `cicp_matrix`, `cicp_full_range`).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any, Dict, List, Optional, Tuple

import imageprobe

# The result columns: url and ok, then every field of both answer classes, once each, so a
# field added to ImageInfo appears here without a change. A tuple field is a column per part,
# each typed (Parquet can't infer a type for a column of tuples): dpi is dpi_x and dpi_y, cicp is
# cicp_primaries, cicp_transfer, cicp_matrix and cicp_full_range.
_KINDS = {"int": "Int64", "bool": "boolean", "str": "string", "float": "float64"}
_PARTS = {"dpi": ("x", "y"), "cicp": ("primaries", "transfer", "matrix", "full_range")}


def _column_type(annotation: str) -> str:
    base = annotation.replace(" ", "").replace("|None", "").replace("Optional[", "").rstrip("]")
    return _KINDS.get(base, "object")


def _columns() -> Dict[str, Tuple[str, str, Optional[int]]]:
    """Each column: its pandas dtype, and where its value comes from (a field, and the part
    of a tuple field)."""
    columns: Dict[str, Tuple[str, str, Optional[int]]] = {"url": ("string", "url", None), "ok": ("boolean", "ok", None)}
    for cls in (imageprobe.ImageInfo, imageprobe.Failure):
        for field in dataclasses.fields(cls):
            annotation = str(field.type).replace(" ", "").replace("|None", "")
            if annotation.startswith("tuple["):
                kinds = annotation[len("tuple["):-1].split(",")
                parts = _PARTS.get(field.name) or tuple(str(index) for index in range(len(kinds)))
                for index, (part, kind) in enumerate(zip(parts, kinds)):
                    columns.setdefault(f"{field.name}_{part}", (_KINDS.get(kind, "object"), field.name, index))
            else:
                columns.setdefault(field.name, (_column_type(str(field.type)), field.name, None))
    return columns


def result_columns() -> Dict[str, str]:
    """The output's columns and their pandas dtypes (nullable throughout)."""
    return {name: dtype for name, (dtype, _, _) in _columns().items()}


def probe_partition(frame: Any, column: str = "url", jobs: int = 32, **options: Any) -> Any:
    """One partition: a pandas DataFrame with URLs in `column` -> one row per URL. Runs on a
    worker; `options` are imageprobe.probe_url's (timeout, max_bytes, public_only, mode...)."""
    import pandas as pd

    columns = _columns()
    urls: List[str] = [str(url) for url in frame[column].tolist()]
    rows: Dict[str, List[Any]] = {name: [] for name in columns}
    for url, result in zip(urls, imageprobe.probe_urls(urls, jobs=jobs, **options)):
        rows["url"].append(url)
        rows["ok"].append(result.ok)
        for name, (_, field, part) in columns.items():
            if name not in ("url", "ok"):
                value = getattr(result, field, None)
                rows[name].append(value if part is None or value is None else value[part])
    return pd.DataFrame({name: pd.array(values, dtype=columns[name][0]) for name, values in rows.items()})


def read_urls(source: str, column: str = "url", partition_size: int = 10_000) -> Tuple[Any, int]:
    """The URL list as a Dask DataFrame with one column, `column`, in partitions of about
    `partition_size` URLs; and how many URLs there are."""
    import dask.bag as db
    import dask.dataframe as dd

    if source.endswith(".parquet") or _is_parquet_folder(source):
        frame = dd.read_parquet(source, columns=[column])
    else:
        lines = db.read_text(source, blocksize=None if source.endswith(".gz") else "8MiB")
        frame = lines.map(str.strip).filter(bool).map(lambda url: {column: url}).to_dataframe(
            meta={column: "string"})
    count = _length(frame)
    partitions = max(1, -(-count // partition_size))
    if partitions != frame.npartitions:
        frame = frame.repartition(npartitions=partitions)
    return frame, count


def _length(frame: Any) -> int:
    return int(frame.map_partitions(len).sum().compute())


def _is_parquet_folder(source: str) -> bool:
    import glob
    import os
    return os.path.isdir(source) and bool(glob.glob(os.path.join(source, "*.parquet")))


def probe_to_files(source: str, output: str, *, column: str = "url", partition_size: int = 10_000, jobs: int = 32,
                   **options: Any) -> int:
    """Probes every URL of `source` on the current Dask client (or the local scheduler) and
    writes the results to `output` (Parquet, or JSON Lines for `*.jsonl`). Returns the count."""
    import pandas as pd

    urls, count = read_urls(source, column, partition_size)
    meta = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in result_columns().items()})
    results = urls.map_partitions(probe_partition, column=column, jobs=jobs, meta=meta, **options)
    if output.endswith(".jsonl"):
        results.to_json(f"{output}/part-*.jsonl", orient="records", lines=True)
    else:
        results.to_parquet(output, write_index=False)
    return count


def main(arguments: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a text file of URLs (one a line), or Parquet with a URL column")
    parser.add_argument("output", help="a Parquet folder, or *.jsonl for JSON Lines")
    parser.add_argument("--column", default="url", help="the Parquet column with the URLs (default url)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster here)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    parser.add_argument("--partition-size", type=int, default=10_000, help="URLs a partition (default 10,000)")
    parser.add_argument("--jobs", type=int, default=32, help="URLs in flight per partition (default 32)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a request (default 10)")
    parser.add_argument("--mode", default="dimensions_only", choices=["full", "dimensions_only", "animation"])
    parser.add_argument("--public-only", action="store_true", help="connect only to public addresses (SPEC.md §6.4)")
    options = parser.parse_args(arguments)

    from dask.distributed import Client, LocalCluster

    cluster = None if options.scheduler else LocalCluster(n_workers=options.workers, threads_per_worker=1,
                                                          dashboard_address=None)
    with Client(options.scheduler or cluster) as client:
        count = probe_to_files(options.source, options.output, column=options.column,
                               partition_size=options.partition_size, jobs=options.jobs, timeout=options.timeout,
                               mode=options.mode, public_only=options.public_only)
    if cluster is not None:
        cluster.close()
    print(f"{count} URLs probed into {options.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
