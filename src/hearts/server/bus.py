"""The processes of one deployment, connected through Redis: table leases and the relay.

Each process is a *node* with a random id. It subscribes to one channel of its own,
``hearts:node:{id}``, and to ``hearts:control``; everything it is sent arrives there.

- **Leases.** A table is owned by the node whose id is in ``hearts:lease:{table}``: taken
  with ``SET NX PX`` and renewed, every third of its life, by a script that extends only
  the keys still holding this node's id. A lease that was not renewed (the node died or
  stalled) expires, and the next node to need the table takes it and replays its log from
  the store. The store's primary key fences the rare overlap (see
  :mod:`hearts.server.store_postgres`).
- **Liveness.** ``hearts:alive:{node}`` lives as long as a lease and is renewed with them,
  so an owner can drop the relayed connections of a node that died, and a node can notice
  that the owner of a table it relays for died.
- **The relay.** A node that holds a client of a table owned elsewhere publishes the
  client's messages to the owner's channel; the owner answers on the node's channel. One
  sender task publishes each node's outgoing messages in order, pipelined.

Payloads are JSON objects with an ``op``: ``msg`` / ``close`` (a relayed connection's text
or its end, to the owner), ``out`` (text for a relayed connection, to its node; framed as
``NUL conn NUL text`` instead, see :meth:`Bus.post_out`),
``moved`` (the owner no longer has the table: find it again), ``http`` / ``http_reply``
(a table's HTTP request served by its owner), and ``owned`` on the control channel.

**Outages.** Redis keeps nothing that matters for long, and a restart loses all of it. The
lease keeper writes this node's liveness and its entry in ``hearts:nodes`` every round and
takes back a lease of its own that has vanished (nobody else holds it; the store fences a
stale owner). A relayed text that no node heard is reported (:attr:`Bus.on_undelivered`),
and when the subscription itself broke and was made again :attr:`Bus.on_restored` is
called: messages may have been lost both ways, so the hub greets its relayed connections
anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote_plus, urlsplit

import redis.asyncio as redis

from hearts.server.settings import ServerConfigError

__all__ = ["COMMAND_TIMEOUT_S", "CONNECT_TIMEOUT_S", "Bus", "check_reachable", "is_redis_url",
           "redact_url", "text_of"]

log = logging.getLogger(__name__)

CONTROL = "hearts:control"

CONNECT_TIMEOUT_S = 3.0
"""How long connecting to Redis may take before the request fails (a ``RedisError``)."""
COMMAND_TIMEOUT_S = 5.0
"""How long a Redis command's answer may take: a Redis that hangs fails requests within
this rather than holding them. The relay's listener is not cut by it while idle: it asks
for each message with a timeout of its own (``get_message(timeout=...)``), which answers
nothing rather than failing."""

# KEYS: the leases to renew; ARGV[1]: this node, ARGV[2]: milliseconds. Returns the
# keys this node no longer holds. A lease that vanished (Redis restarted, or it expired
# while this node stalled) and that nobody took is taken back: a stale table's next write
# is refused by the store, as after any overlap.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('get', key)
  if holder == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
  elseif not holder then
    redis.call('set', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def is_redis_url(text: str) -> bool:
    """Whether a ``--bus`` value names a Redis server."""
    return text.startswith(("redis://", "rediss://", "unix://"))


def redact_url(url: str) -> str:
    """A URL as the server may print or log it: any password replaced by ``***``, the
    userinfo's (split at its last ``@``, as a password may hold a raw one) and a
    ``password`` query parameter's.

    >>> redact_url("redis://:s3cret@db.example:6379/0")
    'redis://:***@db.example:6379/0'
    >>> redact_url("postgresql://hearts:pw@127.0.0.1/hearts")
    'postgresql://hearts:***@127.0.0.1/hearts'
    >>> redact_url("redis://:p@ss@db.example/0")
    'redis://:***@db.example/0'
    >>> redact_url("postgresql://hearts@db.example/hearts?password=pw&sslmode=require")
    'postgresql://hearts@db.example/hearts?password=***&sslmode=require'
    >>> redact_url("redis://:pw@[::1/0")  # no URL to split: all after // up to @ hidden
    'redis://***@[::1/0'
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # a URL urllib cannot read (a broken IPv6 host) hides all it might
        scheme, slashes, rest = url.partition("//")
        user, at, host = rest.rpartition("@")
        return f"{scheme}{slashes}***@{host}" if at else url
    netloc = parts.netloc
    user, at, host = netloc.rpartition("@")
    if at and ":" in user:
        netloc = f"{user.split(':', 1)[0]}:***@{host}"
    query = "&".join(
        f"{field.split('=', 1)[0]}=***"
        if unquote_plus(field.split("=", 1)[0]).strip().lower() == "password" else field
        for field in parts.query.split("&")) if parts.query else parts.query
    shown = url  # changed only where a password was: the rest exactly as given
    if netloc != parts.netloc:
        shown = shown.replace(f"//{parts.netloc}", f"//{netloc}", 1)
    if query != parts.query:
        head, _, tail = shown.partition("?")
        shown = f"{head}?{query}{tail[len(parts.query):]}"
    return shown


def check_reachable(url: str, timeout_s: float = 3.0) -> None:
    """Ask the Redis server ``url`` names for a ``PING`` once, so that a bus that cannot be
    used is refused in words (:class:`ServerConfigError`) before anything listens; the
    password is never shown."""
    import redis as sync_redis

    shown = redact_url(url)
    try:
        client = sync_redis.Redis.from_url(url, socket_connect_timeout=timeout_s,
                                           socket_timeout=timeout_s)
    except ValueError as exc:
        raise ServerConfigError(f"the bus URL {shown!r} cannot be used: {exc}") from None
    try:
        client.ping()
    except sync_redis.RedisError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServerConfigError(f"cannot use the Redis bus at {shown}: {reason}") from None
    finally:
        client.close()


def _lease_key(table_id: str) -> str:
    return f"hearts:lease:{table_id}"


def _node_channel(node: str) -> str:
    return f"hearts:node:{node}"


class Bus:
    """This node's connection to the others (see the module's text)."""

    def __init__(self, url: str, *, lease_s: float = 5.0, node_id: str | None = None) -> None:
        self.url = url
        self.node_id = node_id or secrets.token_hex(4)
        self.lease_ms = int(lease_s * 1000)
        # A bounded pool that waits for a free connection: a burst of clients (a node
        # restarting, hundreds reconnecting) queues here instead of failing.
        try:
            pool = redis.BlockingConnectionPool.from_url(
                url, max_connections=64, timeout=20, socket_connect_timeout=CONNECT_TIMEOUT_S,
                socket_timeout=COMMAND_TIMEOUT_S)  # options in the URL take precedence
        except ValueError as exc:  # a port that is no number, a broken address or option
            raise ServerConfigError(f"the bus URL {redact_url(url)!r} cannot be used: "
                                    f"{exc}") from None
        self.redis: redis.Redis = redis.Redis(connection_pool=pool)
        self.owned: set[str] = set()
        self.on_message: Callable[[dict[str, Any]], Awaitable[None] | None] = _ignore
        self.on_out: Callable[[str, str], None] = _ignore_out
        self.on_lost: Callable[[str], None] = _ignore_lost
        # a relayed connection's text that no node heard: (node, conn)
        self.on_undelivered: Callable[[str, str], None] = _ignore_out
        # the subscription broke and was made again: messages may have been lost
        self.on_restored: Callable[[], None] = _ignore_restored
        self._gone: dict[str, float] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._pubsub: Any = None
        self._renew: Any = None
        self._release: Any = None

    # ------------------------------------------------------------ life
    async def start(self) -> None:
        """Subscribe, announce this node alive, and start the sender and the lease keeper."""
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        await self._register()
        await self._subscribe()
        for work, name in ((self._listen, "listen"), (self._send, "send"),
                           (self._keep_leases, "leases")):
            self._tasks.append(asyncio.create_task(work(), name=f"bus-{name}"))

    async def _register(self) -> None:
        """Say this node is alive and list it (again: a restarted Redis forgot both)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"hearts:alive:{self.node_id}", "1", px=self.lease_ms)
            pipe.sadd("hearts:nodes", self.node_id)
            await pipe.execute()

    async def _subscribe(self) -> None:
        """A new subscription to this node's channel and the control channel."""
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), 2.0)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(_node_channel(self.node_id), CONTROL)

    async def stop(self) -> None:
        """Give every lease back (others take the tables at once) and disconnect."""
        # Every loop also stops by the flag: redis-py can turn a cancellation that lands
        # inside a command into a plain Redis error or timeout, which a loop that only
        # catches those would survive, running on after the stop (and hanging whatever
        # later waits for it, such as an event loop's shutdown).
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2.0)
        self._tasks.clear()
        with contextlib.suppress(Exception):
            for table_id in list(self.owned):
                await self.release(table_id)
                # the nodes relaying its clients look for it again at once
                await self.announce({"op": "moved", "table": table_id})
            await self.redis.delete(f"hearts:alive:{self.node_id}")
            await self.redis.srem("hearts:nodes", self.node_id)
        # bounded, like the tasks above: a stop must return even if Redis does not answer
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), 2.0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2.0)

    # ------------------------------------------------------------ leases
    async def acquire(self, table_id: str) -> bool:
        """Take a table's lease if nobody holds it."""
        if await self.redis.set(_lease_key(table_id), self.node_id, nx=True, px=self.lease_ms):
            self.owned.add(table_id)
            return True
        return table_id in self.owned and await self.owner(table_id) == self.node_id

    async def release(self, table_id: str) -> None:
        """Give a table's lease back."""
        self.owned.discard(table_id)
        await self._release(keys=[_lease_key(table_id)], args=[self.node_id])

    async def owner(self, table_id: str) -> str | None:
        """The node that holds a table's lease, or None."""
        value = await self.redis.get(_lease_key(table_id))
        return None if value is None else text_of(value)

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The lease holders of many tables at once."""
        if not table_ids:
            return []
        values = await self.redis.mget([_lease_key(t) for t in table_ids])
        return [None if v is None else text_of(v) for v in values]

    async def alive(self, node: str) -> bool:
        """Whether a node renewed its liveness within a lease's life (and, when a message
        to it found nobody listening, since then)."""
        gone = self._gone.get(node)
        if gone is not None and time.monotonic() - gone < 2 * self.lease_ms / 1000:
            return False
        return bool(await self.redis.exists(f"hearts:alive:{node}"))

    async def _keep_leases(self) -> None:
        every = self.lease_ms / 3000
        while True:
            await asyncio.sleep(every)
            if self._stopping:
                return
            try:
                await self._register()
                owned = list(self.owned)
                lost = await self._renew(keys=[_lease_key(t) for t in owned],
                                         args=[self.node_id, self.lease_ms]) if owned else []
            except redis.RedisError as exc:
                log.warning("could not renew the leases: %s", exc)
                continue
            for key in lost:
                table_id = text_of(key).removeprefix("hearts:lease:")
                if table_id in self.owned:
                    self.owned.discard(table_id)
                    log.warning("table %s: the lease was lost; dropping it", table_id)
                    self.on_lost(table_id)

    # ------------------------------------------------------------ messages
    async def publish(self, node: str, payload: dict[str, Any]) -> int:
        """Send to one node now; how many nodes heard it (0: it is gone)."""
        heard = int(await self.redis.publish(_node_channel(node), json.dumps(payload)))
        if not heard:
            self._gone[node] = time.monotonic()  # its liveness key may linger a while
        return heard

    def post(self, node: str, payload: dict[str, Any]) -> None:
        """Send to one node soon, in order with everything else posted (does not wait)."""
        self._outbox.put_nowait((_node_channel(node), json.dumps(payload)))

    def post_out(self, node: str, conn: str, text: str) -> None:
        """Send a relayed connection's message to its node soon, in order with everything
        else posted. Framed as ``NUL conn NUL text`` rather than JSON: a view would be
        escaped into a JSON string and unescaped again, the relay's largest cost."""
        self._outbox.put_nowait((_node_channel(node), f"\0{conn}\0{text}"))

    async def announce(self, payload: dict[str, Any]) -> None:
        """Tell every node."""
        await self.redis.publish(CONTROL, json.dumps(payload))

    async def _send(self) -> None:
        outbox = self._outbox
        while not self._stopping:
            first = await outbox.get()
            batch = [first]
            while not outbox.empty() and len(batch) < 512:
                batch.append(outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    heard = await pipe.execute()
            except redis.RedisError as exc:
                log.warning("could not relay %d messages: %s", len(batch), exc)
                heard = [0] * len(batch)
            # a relayed connection that missed a message is out of step: the hub resyncs it
            missed = {(channel, text[1:].partition("\0")[0])
                      for (channel, text), count in zip(batch, heard, strict=True)
                      if not count and text[:1] == "\0"}
            for channel, conn in missed:
                self.on_undelivered(channel.removeprefix("hearts:node:"), conn)

    async def _listen(self) -> None:
        while not self._stopping:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except redis.RedisError as exc:
                log.warning("the bus failed (%s); listening again", exc)
                await self._resubscribe()
                continue
            if message is None or message.get("type") != "message":
                continue
            data = message["data"]
            if data[:1] == b"\0":
                conn, _, text = data[1:].partition(b"\0")
                self.on_out(conn.decode(), text.decode())
                continue
            try:
                payload = json.loads(data)
                handled = self.on_message(payload)
                if handled is not None:
                    await handled
            except Exception:  # one bad message must not stop the node's ears
                log.exception("a bus message failed: %r", message.get("data"))


    async def _resubscribe(self) -> None:
        """Subscribe anew until Redis answers, list this node again, and tell the hub."""
        while not self._stopping:
            await asyncio.sleep(0.5)
            try:
                await self._subscribe()
                await self._register()
            except redis.RedisError as exc:
                log.debug("the bus is still down: %s", exc)
                continue
            log.warning("the bus is back; greeting the relayed connections again")
            self.on_restored()
            return


def text_of(value: bytes | str) -> str:
    """A Redis reply as text."""
    return value.decode() if isinstance(value, bytes) else value


def _ignore(payload: dict[str, Any]) -> None:
    log.debug("bus message with no handler: %r", payload)


def _ignore_out(conn: str, text: str) -> None:
    log.debug("relayed text for %s with no handler", conn)


def _ignore_restored() -> None:
    log.debug("bus restored with no handler")


def _ignore_lost(table_id: str) -> None:
    log.debug("lease of %s lost with no handler", table_id)
