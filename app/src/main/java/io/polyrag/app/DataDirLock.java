package io.polyrag.app;

import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on the data directory, held for the life of the process: a second process (or a second
 * instance in this one) gets a clear "already in use" error instead of two writers corrupting the stores. The lock
 * is the operating system's, so it is released even when the process dies.
 */
final class DataDirLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirLock acquire(Path dataDir) {
        Path file = dataDir.resolve(".lock");
        FileChannel ch = null;
        try {
            Files.createDirectories(dataDir);
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip();
                ch.close();
                throw new DataDirInUseException(dataDir.toAbsolutePath(), "data directory " + dataDir.toAbsolutePath()
                        + " is already in use"
                        + (holder.isEmpty() ? "" : " by process " + holder) + ": stop that polyrag (or talk to its "
                        + "REST API), or set POLYRAG_DATA_DIR to another directory");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
            return new DataDirLock(ch, lock);
        } catch (IOException e) {
            closeQuietly(ch);
            if (StorageProblems.kind(e) != StorageProblems.Kind.OTHER) {
                throw StorageProblems.exception("data directory", dataDir.toAbsolutePath(), "be locked",
                        e);
            }
            throw new StoreException("cannot lock data directory " + dataDir.toAbsolutePath() + ": " + e.getMessage(),
                    e);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // already failing; the first error is the one to report
            }
        }
    }

    /** Releases the lock; closing again does nothing. */
    @Override
    public void close() {
        if (!channel.isOpen()) {
            return;
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new StoreException("cannot release the data directory lock: " + e.getMessage(), e);
        }
    }
}
