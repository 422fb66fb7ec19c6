package io.polyrag.app;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A value read again once it is older than {@code maxAge}: the tenants holding an active key, asked by the sync
 * scheduler every five seconds (and by each watched folder's change) while an offboarded tenant's sources stay due.
 */
final class Recent<T> implements Supplier<T> {
    private final long maxAgeNanos;
    private final Supplier<T> read;
    private T value;
    private long readAt;
    private boolean known;
    private final ReentrantLock lock = new ReentrantLock();

    Recent(Duration maxAge, Supplier<T> read) {
        this.maxAgeNanos = maxAge.toNanos();
        this.read = read;
    }

    @Override
    public T get() {
        lock.lock();
        try {
            long now = System.nanoTime();
            if (!known || now - readAt > maxAgeNanos) {
                value = read.get();
                readAt = now;
                known = true;
            }
            return value;
        } finally {
            lock.unlock();
        }
    }
}
