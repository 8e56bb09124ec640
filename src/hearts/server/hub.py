"""Every table of one server: creating, finding, listing, loading them after a restart.

With a bus (:mod:`hearts.server.bus`) the server is one node of several: a table lives on
the node that holds its lease, and this hub finds it (:meth:`Hub.resolve`): here, on
another live node (whose clients' messages are relayed both ways), or nowhere yet, when
this node takes the lease and replays the table's log from the store. Each websocket
connection is a :class:`Session` that can move: when its table's owner dies or gives the
table up, the session finds the table again and says its hello anew, so the client gets a
fresh welcome and carries on.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from hearts.core import HeartsError
from hearts.server.authority import Subscriber, TableAuthority
from hearts.server.protocol import RequestError, TokenBucket, compact_json, decode_json
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import DeferredStore, Store, StoredTable
from hearts.server.table import Table

if TYPE_CHECKING:
    from hearts.server.bus import Bus

__all__ = ["Hub", "RemoteSubscriber", "Session", "Sink"]

log = logging.getLogger(__name__)

# A client's text handled for one subscriber: (hub, table, subscriber, bucket, text,
# greeted) -> greeted. websocket.py provides it; the hub only runs it.
Serve = Callable[["Hub", Table, "Sink", TokenBucket, "str | bytes", bool], Awaitable[bool]]


class Sink(Subscriber, Protocol):
    """A subscriber that also takes JSON objects and remembers its last rate-limit error."""

    last_rate_error: float

    def send(self, data: dict[str, Any]) -> None:
        """Queue a JSON message."""
        ...


class _Held:
    """A subscriber whose messages wait until the store holds every write before them."""

    def __init__(self, inner: Sink, store: DeferredStore, table_id: str) -> None:
        self.inner = inner
        self.store = store
        self.table_id = table_id
        self.last_rate_error = 0.0

    @property
    def seat(self) -> int | None:
        return self.inner.seat

    @seat.setter
    def seat(self, seat: int | None) -> None:
        self.inner.seat = seat

    def send_text(self, text: str) -> None:
        self.store.hold(self.table_id, lambda: self.inner.send_text(text))

    def send(self, data: dict[str, Any]) -> None:
        self.send_text(compact_json(data))


class RemoteSubscriber:
    """A connection held by another node, as the owner of its table sees it: its messages
    arrive through the bus and are answered through it, one at a time, in order."""

    def __init__(self, hub: Hub, node: str, conn: str, table: Table) -> None:
        self.hub = hub
        self.node = node
        self.conn = conn
        self.table = table
        self.seat: int | None = None
        self.last_rate_error = 0.0
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.task = asyncio.create_task(self._work(), name=f"remote-{node}-{conn}")

    def send_text(self, text: str) -> None:
        assert self.hub.bus is not None
        self.hub.bus.post_out(self.node, self.conn, text)

    def send(self, data: dict[str, Any]) -> None:
        self.send_text(compact_json(data))

    async def _work(self) -> None:
        hub = self.hub
        sink = hub.sink(self, self.table.table_id)
        config = hub.config
        bucket = TokenBucket(config.rate_burst, config.rate_per_s)
        greeted = False
        try:
            while (text := await self.inbox.get()) is not None:
                greeted = await hub.serve(hub, self.table, sink, bucket, text, greeted)
        finally:
            self.table.detach(sink)


class Session:
    """One websocket connection of this node, wherever its table lives."""

    def __init__(self, hub: Hub, table_id: str, conn: Sink) -> None:
        self.hub = hub
        self.table_id = table_id
        self.conn = conn
        self.key = f"c{next(hub.session_numbers)}"
        self.table: Table | None = None  # set while the table is here
        self.sink: Sink = hub.sink(conn, table_id)
        self.owner: str | None = None  # set while another node has the table
        self.bucket = TokenBucket(hub.config.rate_burst, hub.config.rate_per_s)
        self.greeted = False
        self.hello: str | bytes | None = None
        self.lock = asyncio.Lock()

    def place(self, target: Table | str) -> None:
        """Where the table is now: here, or the node that owns it."""
        if isinstance(target, Table):
            self.table, self.owner = target, None
        else:
            self.table, self.owner = None, target

    async def handle(self, text: str | bytes) -> None:
        """One message from the client: served here, or relayed to the owner."""
        async with self.lock:
            if self.hub.bus is not None and _is_hello(text):  # kept to greet a new owner
                self.hello = text
            await self._deliver(text, retry=True)

    async def _deliver(self, text: str | bytes, retry: bool) -> bool:
        """Serve or relay one message; False if the owner was gone (and, with ``retry``,
        it was delivered after finding the table again)."""
        hub = self.hub
        if self.table is not None:
            self.greeted = await hub.serve(hub, self.table, self.sink, self.bucket, text,
                                           self.greeted)
            return True
        if self.owner is None:
            return False
        assert hub.bus is not None
        payload = text if isinstance(text, str) else text.decode("utf-8", "replace")
        heard = await hub.bus.publish(self.owner, {
            "op": "msg", "table": self.table_id, "node": hub.bus.node_id, "conn": self.key,
            "text": payload})
        if heard:
            return True
        if retry and await self._move() and text is not self.hello:
            await self._deliver(text, retry=False)
        return False

    async def rehome(self, stale: str | None) -> None:
        """The table left ``stale`` (a node, or this one: None): find it again and say
        hello there, unless the session has moved on already."""
        async with self.lock:
            if self.owner == stale and (stale is not None or self.table is None):
                await self._move()

    async def _move(self) -> bool:
        """Find the table again and greet it there; whether that worked."""
        hub = self.hub
        for _ in range(3):  # an owner found may die before it hears us: look again
            log.info("session %s of table %s moves from %s", self.key, self.table_id,
                     self.owner or "here")
            if self.owner is not None and hub.bus is not None:
                # awaited, not queued: the owner must hear this before the next hello
                await hub.bus.publish(self.owner, self._close_message())
            self.leave(quietly=True)
            try:
                target = await hub.resolve(self.table_id)
            except RequestError as exc:
                self.conn.send({"type": "error", "code": exc.code, "message": exc.message})
                return False
            if target is None:
                return False
            self.place(target)
            self.greeted = False
            log.info("session %s of table %s is now served by %s", self.key, self.table_id,
                     self.owner or "this node")
            if self.hello is None or await self._deliver(self.hello, retry=False):
                return True
        return False

    def leave(self, quietly: bool = False) -> None:
        """The connection ends (or moves): the table forgets it."""
        if self.table is not None:
            self.table.detach(self.sink)
        elif self.owner is not None and self.hub.bus is not None and not quietly:
            self.hub.bus.post(self.owner, self._close_message())
        self.table = self.owner = None

    def _close_message(self) -> dict[str, Any]:
        assert self.hub.bus is not None
        return {"op": "close", "conn": self.key, "node": self.hub.bus.node_id}


def _is_hello(text: str | bytes) -> bool:
    """Whether a client's text is a hello (kept, to greet the table again after a move)."""
    raw = text.encode() if isinstance(text, str) else text
    if len(raw) > 4096 or b'"hello"' not in raw:
        return False
    try:
        data = decode_json(raw, "")
    except RequestError:
        return False
    return data.get("type") == "hello"


class Hub:
    """The tables of one server and their shared store (and, with a bus, its node)."""

    def __init__(self, store: Store, config: ServerConfig, bus: Bus | None = None) -> None:
        self.store = store
        self.config = config
        self.bus = bus
        self.tables: dict[str, Table] = {}
        # hint searches run one at a time, waiters in turn: a flood of hints queues here
        # instead of running many searches beside the tables' own computer players
        self.searches = asyncio.Semaphore(1)
        self.serve: Serve = _no_serve
        self.http: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None
        self.sessions: dict[str, Session] = {}
        self.session_numbers = itertools.count(1)
        self.remote: dict[str, RemoteSubscriber] = {}
        self._deferred = store if isinstance(store, DeferredStore) else None
        self._busy: set[asyncio.Task[Any]] = set()
        self._claims: set[asyncio.Task[Any]] = set()
        self._finding: dict[str, asyncio.Task[Table | str | None]] = {}
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        if self._deferred is not None:
            self._deferred.on_lost = self._lost
        if bus is not None:
            bus.on_message = self._on_bus
            bus.on_out = self._out
            bus.on_lost = self._lost

    def sink(self, inner: Sink, table_id: str) -> Sink:
        """What the authority is given for a connection: with a deferred store, a holder
        that sends nothing before the store holds what it tells."""
        if self._deferred is None:
            return inner
        return _Held(inner, self._deferred, table_id)

    # ------------------------------------------------------------ life
    async def open(self) -> None:
        """Connect the store and the bus; load and run the tables this node serves."""
        if self._deferred is not None:
            await self._deferred.open()
        if self.bus is None:
            self.load()
            self.start()
            return
        await self.bus.start()
        self._spawn(self._watch())

    def load(self) -> int:
        """Rebuild every stored table by replaying its log; returns how many are unfinished."""
        unfinished = 0
        for stored in self.store.load_all():
            table = self._rebuild(stored)
            if table is not None:
                self.tables[stored.table_id] = table
                if not table.authority.state.is_over:
                    unfinished += 1
        return unfinished

    def _rebuild(self, stored: StoredTable) -> Table | None:
        authority = TableAuthority(stored.table_id, TableSettings.from_json(stored.settings),
                                   self.store, self.config)
        try:
            authority.replay(stored.events)
        except (HeartsError, ValueError, KeyError):
            log.exception("table %s: its log does not replay; it is left out",
                          stored.table_id)
            return None
        return Table(authority)

    def start(self) -> None:
        """Run every unfinished table (call inside the event loop)."""
        for table in self.tables.values():
            table.arm_grace()
            table.start()

    async def stop(self) -> None:
        """Stop every table's driver; store what is queued; leave the bus."""
        for task in list(self._busy):
            task.cancel()
        for table in self.tables.values():
            await table.stop()
        for remote in self.remote.values():
            remote.task.cancel()
        if self._deferred is not None:
            await self._deferred.aclose()
        else:
            self.store.close()
        if self.bus is not None:
            await self.bus.stop()

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)
        return task

    async def settle(self) -> None:
        """Wait until what this node did so far is stored (and new tables claimed)."""
        claims, self._claims = self._claims, set()
        for claim in claims:
            await claim
        if self._deferred is not None:
            await self._deferred.flush()

    # ------------------------------------------------------------ tables
    def create(self, settings: TableSettings, creator: str) -> tuple[Table, str]:
        """A new table with its creator in seat 1; returns it and the creator's seat token."""
        table_id = self.config.table_prefix + secrets.token_urlsafe(6)
        if self.bus is not None:
            self._claims.add(self._spawn(self.bus.acquire(table_id)))
        self.store.create_table(table_id, settings.to_json())
        table = Table(TableAuthority(table_id, settings, self.store, self.config))
        self.tables[table_id] = table
        token = secrets.token_urlsafe(24)
        table.join(creator, token, 0)
        table.start()
        return table, token

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables whose game is not over, newest first (this node's)."""
        found = [t.authority.public_info()
                 for t in self.tables.values()
                 if t.authority.settings.public and not t.authority.state.is_over]
        return found[::-1]

    async def all_open_tables(self) -> list[dict[str, Any]]:
        """Public tables whose game is not over, on every node."""
        if self.bus is None:
            return self.open_tables()
        found = self.open_tables()
        members = await self.bus.redis.smembers("hearts:nodes")
        nodes = [n.decode() if isinstance(n, bytes) else n for n in members]
        others = [n for n in nodes if n != self.bus.node_id]
        if others:
            for listed in await self.bus.redis.mget([f"hearts:lobby:{n}" for n in others]):
                if listed is not None:
                    found += json.loads(listed)
        return found

    async def resolve(self, table_id: str) -> Table | str | None:
        """Where a table is: here (its :class:`Table`), the id of the live node that owns
        it, or None when no table has this id. Takes an orphan table over (waiting out a
        dead owner's lease); :class:`RequestError` ``table_moving`` if that takes too long."""
        table = self.tables.get(table_id)
        if table is not None or self.bus is None:
            return table
        finding = self._finding.get(table_id)
        if finding is None:
            finding = asyncio.ensure_future(self._find(table_id))
            self._finding[table_id] = finding
            finding.add_done_callback(lambda _: self._finding.pop(table_id, None))
        return await asyncio.shield(finding)

    async def _find(self, table_id: str) -> Table | str | None:
        bus = self.bus
        assert bus is not None
        deadline = time.monotonic() + bus.lease_ms / 1000 + 3.0
        while time.monotonic() < deadline:
            owner = await bus.owner(table_id)
            if owner is not None and owner != bus.node_id:
                if await bus.alive(owner):
                    return owner
                await asyncio.sleep(0.2)  # a dead owner's lease runs out soon
                continue
            if owner == bus.node_id or await bus.acquire(table_id):
                return await self._take(table_id)
        raise RequestError("table_moving", "the table is moving to another server; "
                           "try again in a moment")

    async def _take(self, table_id: str) -> Table | None:
        """Load a table whose lease this node holds, and run it."""
        assert self.bus is not None
        if table_id in self.tables:
            return self.tables[table_id]
        if self._deferred is not None:
            self._deferred.forget_lost(table_id)
            stored = await self._deferred.load_async(table_id)
        else:
            stored = self.store.load(table_id)
        table = None if stored is None else self._rebuild(stored)
        if table is None:
            await self.bus.release(table_id)
            return None
        self.tables[table_id] = table
        if table.authority.state.is_over:
            await self.bus.release(table_id)  # a finished table needs no owner: all may show it
        else:
            table.arm_grace()
            table.start()
            log.info("table %s: this node owns it now", table_id)
        await self.bus.announce({"op": "owned", "table": table_id, "node": self.bus.node_id})
        return table

    def _lost(self, table_id: str) -> None:
        """Another node owns the table now (or the store refused its writes): stop it here
        and move its connections."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        if self.bus is not None:
            self.bus.owned.discard(table_id)
        self._spawn(self._drop(table))

    async def _drop(self, table: Table) -> None:
        await table.stop()
        for key, remote in list(self.remote.items()):
            if remote.table is table:
                del self.remote[key]
                remote.task.cancel()
                assert self.bus is not None
                self.bus.post(remote.node, {"op": "moved", "table": table.table_id})
        await asyncio.sleep(0.5)  # let a new owner take the lease before the clients look
        for session in list(self.sessions.values()):
            if session.table is table:
                session.table = None
                self._spawn(session.rehome(None))

    # ------------------------------------------------------------ the bus
    def _out(self, conn: str, text: str) -> None:
        """A message from a table's owner for one of this node's connections."""
        session = self.sessions.get(conn)
        if session is not None:
            session.conn.send_text(text)

    def _on_bus(self, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        if op == "msg":
            self._relayed(payload)
        elif op == "close":
            remote = self.remote.pop(f"{payload['node']}/{payload['conn']}", None)
            if remote is not None:
                remote.inbox.put_nowait(None)
        elif op in ("moved", "owned"):
            self._moved(payload["table"], payload.get("node"))
        elif op == "http":
            self._spawn(self._serve_http(payload))
        elif op == "http_reply":
            future = self._replies.pop(payload["rid"], None)
            if future is not None and not future.done():
                future.set_result(payload)

    def _relayed(self, payload: dict[str, Any]) -> None:
        assert self.bus is not None
        key = f"{payload['node']}/{payload['conn']}"
        remote = self.remote.get(key)
        if remote is None:
            table = self.tables.get(payload["table"])
            if table is None:
                self.bus.post(payload["node"], {"op": "moved", "table": payload["table"]})
                return
            remote = self.remote[key] = RemoteSubscriber(self, payload["node"],
                                                         payload["conn"], table)
        remote.inbox.put_nowait(payload["text"])

    def _moved(self, table_id: str, node: str | None) -> None:
        assert self.bus is not None
        if node == self.bus.node_id:
            return
        if node is not None and table_id in self.bus.owned:
            self._lost(table_id)  # somebody else believes they own it: they hold the lease
        for session in list(self.sessions.values()):
            if session.table_id == table_id and session.owner is not None \
                    and session.owner != node:
                self._spawn(session.rehome(session.owner))

    async def _watch(self) -> None:
        """Every so often: move sessions whose table's owner died, drop relayed connections
        of dead nodes, take orphan tables over, give finished tables' leases back, and
        publish this node's open tables."""
        bus = self.bus
        assert bus is not None
        every = bus.lease_ms / 2000
        while True:
            await asyncio.sleep(every)
            try:
                await self._check_nodes()
                await self._adopt_orphans()
                for table_id in list(bus.owned):
                    table = self.tables.get(table_id)
                    if table is not None and table.authority.state.is_over:
                        await bus.release(table_id)  # a finished table needs no owner
                await bus.redis.set(f"hearts:lobby:{bus.node_id}",
                                    json.dumps(self.open_tables()), px=bus.lease_ms)
            except Exception:
                log.exception("the cluster check failed; trying again shortly")

    async def _check_nodes(self) -> None:
        bus = self.bus
        assert bus is not None
        nodes = {s.owner for s in self.sessions.values() if s.owner is not None}
        nodes |= {r.node for r in self.remote.values()}
        dead = {node for node in nodes if not await bus.alive(node)}
        for session in list(self.sessions.values()):
            if session.owner in dead:
                self._spawn(session.rehome(session.owner))
        for key, remote in list(self.remote.items()):
            if remote.node in dead:
                del self.remote[key]
                remote.inbox.put_nowait(None)

    async def _adopt_orphans(self, most: int = 20) -> None:
        """Take over unfinished tables nobody owns (a node died with nobody watching)."""
        bus = self.bus
        unfinished = getattr(self.store, "unfinished_ids", None)
        if bus is None or unfinished is None:
            return
        ids = [t for t in await unfinished() if t not in self.tables]
        adopted = 0
        for table_id, owner in zip(ids, await bus.owners(ids), strict=True):
            if owner is None and adopted < most and await bus.acquire(table_id):
                await self._take(table_id)
                adopted += 1

    # ------------------------------------------------------------ HTTP through the owner
    async def relay_http(self, node: str, request: dict[str, Any],
                         timeout: float = 5.0) -> dict[str, Any]:
        """Have the owner of a table answer an HTTP request about it."""
        assert self.bus is not None
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        heard = await self.bus.publish(node, {"op": "http", "rid": rid,
                                              "node": self.bus.node_id, **request})
        try:
            if heard == 0:
                raise TimeoutError
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise RequestError("table_moving", "the table's server did not answer; try "
                               "again in a moment") from None
        finally:
            self._replies.pop(rid, None)

    async def _serve_http(self, payload: dict[str, Any]) -> None:
        assert self.bus is not None and self.http is not None
        reply = await self.http(payload)
        self.bus.post(payload["node"], {"op": "http_reply", "rid": payload["rid"], **reply})


async def _no_serve(hub: Hub, table: Table, sink: Sink, bucket: TokenBucket,
                    text: str | bytes, greeted: bool) -> bool:
    raise RuntimeError("the websocket endpoint did not register its message handler")

