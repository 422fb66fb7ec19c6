package io.polyrag.app;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.Tenant;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What happens to jobs, as numbered events for live progress ({@code GET /v1/events}): created, progress (each
 * stage change and at most every quarter second), finished. The last {@value #CAPACITY} events are kept in a ring, so
 * memory is bounded however many subscribers wait and however slowly they read; a subscriber resumes after the last
 * id it saw, and one that falls further behind than the ring misses the oldest (it can read the jobs themselves).
 *
 * <p>Ids count on from this process's start in microseconds since the epoch, so an id a subscriber kept from before a
 * restart is below every id issued since (it resumes with everything kept); an id above any issued here (from a
 * replica that started later) is taken as from elsewhere too. Before, ids restarted at 1, and a subscriber resuming
 * with an older process's id heard nothing until the new count passed it.
 */
public final class JobEvents {
    static final int CAPACITY = 10_000;

    /**
     * One event.
     *
     * @param id increasing in this process, per tenant, from its start time in microseconds: a tenant's ids say
     *     nothing of another's events
     * @param tenant whose job it is (empty: the local tenant)
     * @param type {@code created}, {@code progress} or {@code finished}
     * @param job the job as it was then
     */
    public record Event(long id, String tenant, String type, JobInfo job) {
    }

    private final ArrayDeque<Event> ring = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Each tenant's own signal: an event wakes its tenant's subscribers only (every subscriber of every tenant woke
     * on every event, and each took the lock to find nothing of its own).
     */
    private final Map<String, Condition> added = new HashMap<>();
    /** Each tenant's newest event id. */
    private final Map<String, Long> lastIds = new HashMap<>();
    /** Where this process's ids start: its start time, in microseconds since the epoch. */
    private final long base = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    private boolean closed;
    private volatile long lastReadNanos = System.nanoTime() - TimeUnit.HOURS.toNanos(1);
    private final AtomicInteger waiting = new AtomicInteger();
    /** Times a waiting subscriber was woken (an event of its tenant, a close, its time up, a spurious wake-up). */
    private final AtomicLong wakeUps = new AtomicLong();

    void publish(String type, JobInfo job) {
        lock.lock();
        try {
            if (ring.size() == CAPACITY) {
                ring.removeFirst();
            }
            String tenant = job.tenant() == null ? "" : job.tenant();
            ring.addLast(new Event(lastIds.merge(tenant, base + 1, (a, b) -> a + 1), tenant, type, job));
            Condition c = added.get(tenant);
            if (c != null) {
                c.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code tenant}'s events after {@code afterId}, waiting up to {@code wait} for one when there is none yet. Empty
     * when the wait ran out (time for a heartbeat) or the server is closing.
     */
    List<Event> after(Tenant tenant, long afterId, Duration wait) throws InterruptedException {
        waiting.incrementAndGet();
        try {
            return waitAfter(tenant, afterId, wait);
        } finally {
            waiting.decrementAndGet();
            lastReadNanos = System.nanoTime();
        }
    }

    private List<Event> waitAfter(Tenant tenant, long afterId, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        lock.lock();
        try {
            if (afterId > lastIds.getOrDefault(tenant.id(), base)) {
                afterId = 0; // never issued here: from another process, so everything kept is news
            }
            while (!closed) {
                // Nothing new for this tenant: no need to look at the ring (a thousand subscribers wake on every
                // event). Else walk back from the newest only as far as the tenant's afterId: the ring is in order.
                if (lastIds.getOrDefault(tenant.id(), base) > afterId) {
                    List<Event> out = new ArrayList<>();
                    for (var it = ring.descendingIterator(); it.hasNext(); ) {
                        Event e = it.next();
                        if (e.tenant().equals(tenant.id())) {
                            if (e.id() <= afterId) {
                                break;
                            }
                            out.add(e);
                        }
                    }
                    Collections.reverse(out);
                    if (!out.isEmpty()) {
                        return out;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return List.of();
                }
                // Events the ring no longer holds are not waited for again.
                afterId = Math.max(afterId, lastIds.getOrDefault(tenant.id(), base));
                added.computeIfAbsent(tenant.id(), t -> lock.newCondition()).await(left, TimeUnit.NANOSECONDS);
                wakeUps.incrementAndGet();
            }
            return List.of();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether someone listens: a subscriber waits for events now, or read some within {@code within} (between two
     * waits). Else there is no need to look for other replicas' events.
     */
    boolean read(Duration within) {
        return waiting.get() > 0 || System.nanoTime() - lastReadNanos < within.toNanos();
    }

    /** {@code tenant}'s newest event id so far (a subscriber with no Last-Event-ID starts here). */
    long lastId(Tenant tenant) {
        lock.lock();
        try {
            return lastIds.getOrDefault(tenant.id(), base);
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closed = true;
            added.values().forEach(Condition::signalAll);
        } finally {
            lock.unlock();
        }
    }

    /** How many times waiting subscribers were woken so far. */
    long wakeUps() {
        return wakeUps.get();
    }

    boolean closed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }
}
