#!/usr/bin/env python3
"""A loopback TCP proxy that gives connections a network's round trip and bandwidth.

    latency-proxy.py LISTEN_PORT UPSTREAM_PORT [--rtt-ms 50] [--mbit 20] [--window-kb 256] [--seconds 600]

Listens on 127.0.0.1:LISTEN_PORT and forwards each connection to 127.0.0.1:UPSTREAM_PORT
(bytes only: TLS passes through). The model, per direction:

- every chunk arrives half a round trip after it has crossed the link;
- the link is one for all connections (a `link_free_at` time per direction): a chunk of n
  bytes holds it for n / rate seconds from when it is both read and the link is free, and
  chunks of a connection arrive in the order they were read;
- a direction reads ahead of its receiver by at most --window-kb (TCP's flow control), so a
  receiver that hangs up leaves at most a window booked on the link, not the rest of the
  response. There is no slow start: a new connection may fill its window at once;
- a new connection's first client bytes wait one more round trip: loopback completes the TCP
  handshake at once, a real network doesn't.

Stops itself after --seconds, so a benchmark that dies leaves nothing running for long.
"""
import argparse
import asyncio
import time

CHUNK = 16 * 1024


class Link:
    """One direction of the shared link."""

    def __init__(self, bytes_per_second: float, one_way: float) -> None:
        self.bytes_per_second = bytes_per_second
        self.one_way = one_way
        self.link_free_at = 0.0

    def arrival(self, size: int) -> float:
        """When a chunk of `size` bytes read now reaches the far end."""
        start = max(time.monotonic(), self.link_free_at)
        self.link_free_at = start + size / self.bytes_per_second
        return self.link_free_at + self.one_way


async def pipe(source, sink, link: Link, window: int, first_delay: float, abort) -> None:
    """Copies `source` to `sink` through `link` until `source` ends or `sink` goes away."""
    chunks: asyncio.Queue = asyncio.Queue()
    room = asyncio.Event()
    room.set()
    state = {"unsent": 0, "gone": False}  # read and not yet taken by the sink; the sink hung up

    async def deliver() -> None:
        try:
            while (item := await chunks.get()) is not None:
                due, data = item
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                sink.write(data)
                await sink.drain()
                state["unsent"] -= len(data)
                if state["unsent"] < window:
                    room.set()
            if sink.can_write_eof():
                sink.write_eof()
        except (OSError, RuntimeError):
            state["gone"] = True
            room.set()
            abort()

    delivery = asyncio.create_task(deliver())
    delay = first_delay
    try:
        while True:
            await room.wait()
            if state["gone"]:
                break
            data = await source.read(CHUNK)
            if not data:
                break
            chunks.put_nowait((link.arrival(len(data)) + delay, data))
            delay = 0.0
            state["unsent"] += len(data)
            if state["unsent"] >= window:
                room.clear()
    except OSError:
        pass
    chunks.put_nowait(None)
    await delivery


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listen_port", type=int)
    parser.add_argument("upstream_port", type=int)
    parser.add_argument("--rtt-ms", type=float, default=50)
    parser.add_argument("--mbit", type=float, default=20)
    parser.add_argument("--window-kb", type=float, default=256)
    parser.add_argument("--seconds", type=float, default=600)
    args = parser.parse_args()
    rtt = args.rtt_ms / 1000
    rate = args.mbit * 1e6 / 8
    window = int(args.window_kb * 1024)
    up, down = Link(rate, rtt / 2), Link(rate, rtt / 2)
    # asyncio holds a connection's task only weakly, through the client's socket while it is
    # being read, and the upstream stream weakly too: a client that half-closes would leave a
    # live connection to the garbage collector.
    live = set()

    async def connection(client_reader, client_writer) -> None:
        task = asyncio.current_task()
        live.add(task)
        task.add_done_callback(live.discard)
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", args.upstream_port)
        except OSError:
            client_writer.close()
            return

        def abort() -> None:
            # One side hung up mid-transfer: drop both, as a reset would.
            client_writer.transport.abort()
            server_writer.transport.abort()

        await asyncio.gather(
            pipe(client_reader, server_writer, up, window, rtt, abort),
            pipe(server_reader, client_writer, down, window, 0.0, abort),
        )
        client_writer.close()
        server_writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(connection, "127.0.0.1", args.listen_port)
        async with server:
            await asyncio.sleep(args.seconds)

    asyncio.run(serve())


if __name__ == "__main__":
    main()
