"""Examples/python/dask_probe.py on a LocalCluster of 2 worker processes, against nginx."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import List

import pytest

import imageprobe
from conftest import names, need
from servers import Nginx


def example():
    folder = os.environ.get("IMAGEPROBE_EXAMPLES") or str(Path(__file__).resolve().parents[3] / "Examples" / "python")
    path = Path(folder) / "dask_probe.py"
    need(path.exists(), f"Examples/python/dask_probe.py (IMAGEPROBE_EXAMPLES={folder})")
    spec = importlib.util.spec_from_file_location("dask_probe", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dask_example_on_a_local_cluster(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    try:
        import pandas as pd
        from dask.distributed import Client, LocalCluster, get_task_stream
    except ImportError:
        need(False, "dask[distributed,dataframe], pandas and pyarrow")
        raise
    dask_probe = example()
    served = names(files)
    urls = [nginx.url(served[index % len(served)]) for index in range(2000)]
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(urls) + "\n")
    table = tmp_path / "urls.parquet"
    pd.DataFrame({"link": urls}).to_parquet(table)
    expected = {url: imageprobe.probe_url(url, mode="dimensions_only") for url in urls[: len(served)]}

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client, get_task_stream(client) as stream:
        count = dask_probe.probe_to_files(str(listing), str(tmp_path / "out.parquet"), partition_size=250, jobs=8,
                                          timeout=5, mode="dimensions_only")
        count_jsonl = dask_probe.probe_to_files(str(table), str(tmp_path / "out.jsonl"), column="link",
                                                partition_size=400, jobs=8, timeout=5, mode="dimensions_only")
    workers = {task["worker"] for task in stream.data if task.get("startstops")}
    assert count == count_jsonl == len(urls)
    assert len(workers) == 2, workers

    parquet = pd.read_parquet(tmp_path / "out.parquet")
    lines = [json.loads(line) for path in sorted((tmp_path / "out.jsonl").glob("*.jsonl"))
             for line in path.read_text().splitlines()]
    assert len(parquet) == len(lines) == len(urls)
    assert sorted(parquet["url"]) == sorted(urls) and sorted(row["url"] for row in lines) == sorted(urls)
    for row in list(parquet.to_dict("records")) + lines:
        want = expected[row["url"]]
        assert bool(row["ok"]) == want.ok, row
        if want.ok:
            assert (row["format"], row["width"], row["height"]) == (want.format, want.width, want.height), row
        else:
            assert row["error"] == want.error, row


def test_dask_example_full_mode_columns(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    """Full mode's extra facts as typed columns (the tuples dpi and cicp a column per part), one
    partition probed and written as Parquet, every row checked against probe_url."""
    try:
        import pandas as pd
    except ImportError:
        need(False, "pandas and pyarrow")
        raise
    dask_probe = example()
    urls = [nginx.url(name) for name in names(files)][:300]
    frame = dask_probe.probe_partition(pd.DataFrame({"url": urls}), jobs=8, mode="full", timeout=5)
    assert list(frame.columns) == list(dask_probe.result_columns())
    for column in ("dpi_x", "dpi_y", "cicp_primaries", "cicp_full_range", "hdr", "icc_profile", "width"):
        assert column in frame.columns and str(frame[column].dtype) != "object", column
    frame.to_parquet(tmp_path / "full.parquet", index=False)
    rows = pd.read_parquet(tmp_path / "full.parquet").to_dict("records")
    value = lambda cell: None if pd.isna(cell) else cell  # noqa: E731
    for row in rows:
        want = imageprobe.probe_url(row["url"], mode="full")
        if not want.ok:
            assert row["error"] == want.error, row
            continue
        assert (value(row["dpi_x"]), value(row["dpi_y"])) == (want.dpi or (None, None)), row
        assert tuple(value(row[f"cicp_{part}"]) for part in ("primaries", "transfer", "matrix", "full_range")) == \
            (want.cicp or (None,) * 4), row
        assert (value(row["icc_profile"]), value(row["interlaced"])) == (want.icc_profile, want.interlaced), row
