package io.polyrag.app;

import io.polyrag.core.ConfigException;
import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on the data directory, held for the life of the process: a second process (or a second
 * instance in this one) gets a clear "already in use" error instead of two writers corrupting the stores. The lock
 * is the operating system's, so it is released even when the process dies.
 */
final class DataDirLock implements AutoCloseable {
    /**
     * The directories this process holds. A second open in this process is refused here, before it opens the lock
     * file at all: the operating system's lock is the process's, and closing any descriptor of the file (the refused
     * open's own) released it, letting another process in beside the first holder.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
    private final FileChannel channel;
    private final FileLock lock;
    private final Path key;

    private DataDirLock(FileChannel channel, FileLock lock, Path key) {
        this.channel = channel;
        this.lock = lock;
        this.key = key;
    }

    static DataDirLock acquire(Path dataDir) {
        Path file = dataDir.resolve(".lock");
        FileChannel ch = null;
        Path key = null;
        try {
            Files.createDirectories(dataDir);
            key = dataDir.toRealPath();
            if (!HELD.add(key)) {
                key = null;
                throw new DataDirInUseException(dataDir.toAbsolutePath(), "data directory " + dataDir
                        .toAbsolutePath() + " is already in use by process " + ProcessHandle.current().pid() + " (this one): "
                        + "close the polyrag that opened it, or set POLYRAG_DATA_DIR to another directory");
            }
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
                HELD.remove(key);
                throw new DataDirInUseException(dataDir.toAbsolutePath(), "data directory " + dataDir.toAbsolutePath()
                        + " is already in use"
                        + (holder.isEmpty() ? "" : " by process " + holder) + ": stop that polyrag (or talk to its "
                        + "REST API), or set POLYRAG_DATA_DIR to another directory");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
            return new DataDirLock(ch, lock, key);
        } catch (IOException e) {
            closeQuietly(ch);
            if (key != null) {
                HELD.remove(key);
            }
            // A file where the folder should be, or on the way to it: the setting is wrong (exit 2, one line).
            if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException
                    || String.valueOf(e.getMessage()).contains("Not a directory")) {
                throw new ConfigException("data directory " + dataDir.toAbsolutePath() + " is not a folder (a file "
                        + "is in its place or on its path): set --data-dir or POLYRAG_DATA_DIR to a folder");
            }
            if (String.valueOf(e.getMessage()).contains("No locks available")) {
                throw new ConfigException("data directory " + dataDir.toAbsolutePath() + " is on a file system that "
                        + "takes no locks (an NFS mount without its lock service?): put it on a local disk");
            }
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
        } finally {
            HELD.remove(key);
        }
    }
}
