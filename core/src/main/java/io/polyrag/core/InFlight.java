package io.polyrag.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Calls into native code (an ONNX session, a tokenizer, an embedded database) that must not overlap with freeing it:
 * freeing native memory while a call still runs in it crashes the whole process. Each call is wrapped in
 * {@link #enter()}/{@link #exit()}; {@link #close(Duration)} refuses new calls, waits for the ones in flight, and
 * says whether they all finished, so the owner frees its native resources only then (and otherwise leaves them to the
 * process's end, which is where a shutdown is going anyway).
 *
 * <p>Safe for concurrent use; waiting uses a lock and condition, never a monitor, so virtual threads do not pin.
 */
public final class InFlight {
    private final String what;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int running;
    private boolean closed;

    /** @param what the resource, for the message a refused call gets ("the embedding model") */
    public InFlight(String what) {
        this.what = what;
    }

    /**
     * Starts a call. Pair it with {@link #exit()} in a {@code finally}.
     *
     * @throws UnavailableException once {@link #close} has begun
     */
    public void enter() {
        lock.lock();
        try {
            if (closed) {
                throw new UnavailableException(what + " is closed: polyrag is shutting down");
            }
            running++;
        } finally {
            lock.unlock();
        }
    }

    /** Ends a call started by {@link #enter()}. */
    public void exit() {
        lock.lock();
        try {
            if (--running == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses new calls and waits up to {@code wait} for the calls in flight.
     *
     * @return true when none is left running: the native resources may be freed; false when some still run
     */
    public boolean close(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        lock.lock();
        try {
            closed = true;
            while (running > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    System.getLogger(InFlight.class.getName()).log(System.Logger.Level.WARNING, running + " calls "
                            + "into " + what + " were still running " + wait.toSeconds() + " s into shutdown: it is "
                            + "left for the process's end to free, so they cannot crash it");
                    return false;
                }
                idle.await(left, TimeUnit.NANOSECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return running == 0;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #close} has begun. */
    public boolean closed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }
}
