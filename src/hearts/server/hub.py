"""Every table of one server: creating, finding, listing, loading them after a restart.

With a bus (:mod:`hearts.server.bus`) the server is one node of several: a table lives on
the node that holds its lease, and this hub finds it (:meth:`Hub.resolve`): here, on
another live node (whose clients' messages are relayed both ways), or nowhere yet, when
this node takes the lease and replays the table's log from the store. Each websocket
connection is a :class:`Session` that can move: when its table's owner dies or gives the
table up, the session finds the table again and says its hello anew, so the client gets a
fresh welcome and carries on. A message the bus cannot carry is refused
(``table_moving``) and its connection closed, so the page reconnects; after the bus
lost messages (Redis restarted, a node's subscription broke) every relayed connection
concerned is greeted anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

from redis.exceptions import RedisError

from hearts.core import HeartsError
from hearts.server.authority import Subscriber, TableAuthority
from hearts.server.connection import Connection
from hearts.server.protocol import RequestError, TokenBucket, compact_json, decode_json
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import DeferredStore, Store, StoredTable, StoreUnavailableError
from hearts.server.table import Table

if TYPE_CHECKING:
    from hearts.server.bus import Bus

__all__ = ["MOVE_BACKOFF_MAX_S", "MOVE_BACKOFF_MIN_S", "Hub", "RemoteSubscriber", "Session",
           "Sink"]

log = logging.getLogger(__name__)

MOVE_BACKOFF_MIN_S: Final = 0.2
"""A session that moved and was not welcomed waits this long before it looks again..."""
MOVE_BACKOFF_MAX_S: Final = 2.0
"""...doubling up to this: a node that lost a table but still holds its lease answers
``moved`` at once, and without the wait a session would ask it hundreds of times a second."""

# How a welcome's text begins (compact JSON, ``type`` first): it ends a session's back-off.
_WELCOME: Final = '{"type":"welcome"'

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

    def __init__(self, hub: Hub, table_id: str, conn: Connection) -> None:
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
        self.closing = False  # told to reconnect: the socket closes
        self.backoff = 0.0  # the wait before the next move looks again (0: at once)
        self.lock = asyncio.Lock()

    def place(self, target: Table | str) -> None:
        """Where the table is now: here, or the node that owns it."""
        if isinstance(target, Table):
            self.table, self.owner = target, None
            self.backoff = 0.0  # served here: no owner to ask again
        else:
            self.table, self.owner = None, target

    def welcomed(self) -> None:
        """The table's owner welcomed this connection: a later move looks at once."""
        self.backoff = 0.0

    async def _wait_before_looking(self) -> None:
        """Back off between moves that end in no welcome (see :data:`MOVE_BACKOFF_MAX_S`)."""
        if self.backoff:
            await asyncio.sleep(self.backoff)
        self.backoff = min(max(2 * self.backoff, MOVE_BACKOFF_MIN_S), MOVE_BACKOFF_MAX_S)

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
        if self.owner is None:  # a move that failed: look again, or say so and close
            if retry and await self._move(text) and text is not self.hello:
                return await self._deliver(text, retry=False)
            if self.table is None and self.owner is None:
                self.fail(text)
            return False
        assert hub.bus is not None
        payload = text if isinstance(text, str) else text.decode("utf-8", "replace")
        try:
            heard = await hub.bus.publish(self.owner, {
                "op": "msg", "table": self.table_id, "node": hub.bus.node_id,
                "conn": self.key, "text": payload})
        except RedisError as exc:
            log.warning("session %s of table %s: the bus failed (%s)", self.key,
                        self.table_id, exc)
            self.fail(text)
            return True
        if heard:
            return True
        if retry and await self._move(text) and text is not self.hello:
            await self._deliver(text, retry=False)
        return False

    async def rehome(self, stale: str | None) -> None:
        """The table left ``stale`` (a node, or this one: None): find it again and say
        hello there, unless the session has moved on already."""
        async with self.lock:
            if self.owner == stale and (stale is not None or self.table is None):
                await self._move()

    async def _move(self, text: str | bytes | None = None) -> bool:
        """Find the table again and greet it there; whether that worked. A refusal of the
        move answers ``text`` (the client's message that needed it), when given."""
        hub = self.hub
        for _ in range(3):  # an owner found may die before it hears us: look again
            log.info("session %s of table %s moves from %s", self.key, self.table_id,
                     self.owner or "here")
            if self.owner is not None and hub.bus is not None:
                # awaited, not queued: the owner must hear this before the next hello
                # (an owner the bus cannot reach hears nothing else from us either)
                with contextlib.suppress(RedisError):
                    await hub.bus.publish(self.owner, self._close_message())
            self.leave(quietly=True)
            await self._wait_before_looking()
            try:
                target = await hub.resolve(self.table_id)
            except RequestError as exc:  # table_moving, or unavailable: Redis or the store
                # the page reconnects, and finds the table then
                self._refuse(text, exc.code, exc.message, 1013)
                return False
            if target is None:  # gone for good: as a new connection to it is told
                self._refuse(text, "no_table", "no table with this id", 4404)
                return False
            self.place(target)
            self.greeted = False
            log.info("session %s of table %s is now served by %s", self.key, self.table_id,
                     self.owner or "this node")
            if self.hello is None or await self._deliver(self.hello, retry=False):
                return True
        return False

    def fail(self, text: str | bytes | None) -> None:
        """The bus cannot carry this connection's messages now: refuse ``text`` (when
        given) and close, so the page reconnects and is welcomed afresh."""
        self._refuse(text, "table_moving",
                     "the servers lost touch with each other; reconnecting", 1013)

    def _refuse(self, text: str | bytes | None, code: str, message: str,
                close_code: int) -> None:
        """Answer ``text`` (when given) with the error ``code`` and close (once)."""
        if self.closing:
            return
        self.closing = True
        error: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if text is not None:
            error["id"] = _request_id(text)
        self.conn.send(error)
        self.conn.close(close_code)

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


def _request_id(text: str | bytes) -> object:
    """The id of a client's message, when it can be read at all."""
    if len(text) > 4096:
        return None
    try:
        value = decode_json(text, "").get("id")
    except (RequestError, AttributeError):
        return None
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


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
        self._claims: dict[str, asyncio.Task[Any]] = {}  # new tables' leases being taken
        self._finding: dict[str, asyncio.Task[Table | str | None]] = {}
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        if self._deferred is not None:
            self._deferred.on_lost = self._lost
        if bus is not None:
            bus.on_message = self._on_bus
            bus.on_out = self._out
            bus.on_lost = self._lost
            bus.on_undelivered = self._undelivered
            bus.on_restored = self._restored

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

    async def settle(self, table_id: str | None = None) -> None:
        """Wait until what this node did so far is stored, and the lease of the new table
        ``table_id`` taken (of every new table, if None). A caller that gives up (a
        timeout) cancels only its own wait, never the lease being taken."""
        if table_id is None:
            claims = list(self._claims.values())
        else:
            claim = self._claims.get(table_id)
            claims = [] if claim is None else [claim]
        for claim in claims:
            await asyncio.shield(claim)
        if self._deferred is not None:
            await self._deferred.flush()

    # ------------------------------------------------------------ tables
    def create(self, settings: TableSettings, creator: str) -> tuple[Table, str]:
        """A new table with its creator in seat 1; returns it and the creator's seat token."""
        table_id = self.config.table_prefix + secrets.token_urlsafe(6)
        if self.bus is not None:
            claim = self._spawn(self.bus.acquire(table_id))
            self._claims[table_id] = claim
            claim.add_done_callback(lambda _: self._claims.pop(table_id, None))
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
        dead owner's lease); :class:`RequestError` ``table_moving`` if that takes too long,
        :class:`StoreUnavailableError` (``unavailable``) if Redis or the store is out."""
        table = self.tables.get(table_id)
        if table is not None or self.bus is None:
            return table
        finding = self._finding.get(table_id)
        if finding is None:
            finding = asyncio.ensure_future(self._find(table_id))
            self._finding[table_id] = finding
            finding.add_done_callback(lambda _: self._finding.pop(table_id, None))
        try:
            return await asyncio.shield(finding)
        except RedisError as exc:
            log.warning("table %s cannot be found: the bus failed (%s)", table_id, exc)
            raise StoreUnavailableError("the message bus") from None

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
        try:
            if self._deferred is not None:
                self._deferred.forget_lost(table_id)
                stored = await self._deferred.load_async(table_id)
            else:
                stored = self.store.load(table_id)
        except StoreUnavailableError:
            # not loaded: the lease goes back, or it would be renewed with nobody serving
            with contextlib.suppress(RedisError):
                await self.bus.release(table_id)
            raise
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
            # given back now (only while this node still holds it): a lingering lease would
            # send every other node's clients here, to be told ``moved``, until it expired
            self._spawn(self._give_back(table_id))
        self._spawn(self._drop(table))

    async def _give_back(self, table_id: str) -> None:
        assert self.bus is not None
        try:
            await self.bus.release(table_id)
        except RedisError as exc:  # it expires by itself, no longer renewed
            log.warning("table %s: could not give its lease back (%s)", table_id, exc)

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
            if text.startswith(_WELCOME):
                session.welcomed()
            session.conn.send_text(text)

    def _undelivered(self, node: str, conn: str) -> None:
        """A relayed connection missed a message from its table here: forget it, and have
        its node find the table again (which greets it anew)."""
        remote = self.remote.pop(f"{node}/{conn}", None)
        if remote is not None:
            remote.inbox.put_nowait(None)
            self._spawn(self._tell_moved(node, remote.table.table_id))

    async def _tell_moved(self, node: str, table_id: str) -> None:
        """Tell a node that a table moved, until it hears it (or a few leases passed)."""
        assert self.bus is not None
        deadline = time.monotonic() + 3 * self.bus.lease_ms / 1000
        while time.monotonic() < deadline:
            with contextlib.suppress(RedisError):
                if await self.bus.publish(node, {"op": "moved", "table": table_id}):
                    return
            await asyncio.sleep(0.5)

    def _restored(self) -> None:
        """The bus lost messages (its subscription broke): greet every relayed connection
        of this node anew."""
        for session in list(self.sessions.values()):
            if session.owner is not None:
                self._spawn(session.rehome(session.owner))

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
            except (RedisError, StoreUnavailableError) as exc:  # one line, not a traceback
                log.warning("the cluster check failed (%s); trying again shortly", exc)
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

