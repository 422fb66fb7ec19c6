package io.polyrag.cli;

import io.polyrag.core.ConfigException;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import picocli.CommandLine;

/** Entry point: {@code polyrag serve | ingest | search | config}. */
public final class Main {
    /** Exit codes, also listed in the README. */
    static final int OK = 0;
    static final int PARTIAL = 1;
    static final int USAGE = 2;
    static final int UNAVAILABLE = 3;
    static final int INTERNAL = 4;

    private Main() {
    }

    public static void main(String[] args) {
        Locale.setDefault(Locale.ROOT);
        int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        while (StopSignals.signalled()) {
            // Stopped by a signal: its handler exits with 128 + the signal's number once its stop has ended.
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                break;
            }
        }
        System.exit(code);
    }

    /** The file a file-system failure names (a missing input), for a one-line message. */
    private static String fileOf(Exception e) {
        Throwable t = e instanceof UncheckedIOException u ? u.getCause() : e;
        if (t instanceof FileSystemException f) {
            return f.getFile() + (f.getReason() == null ? "" : " (" + f.getReason() + ")")
                    + ": no such file, or not readable";
        }
        // "cannot read X" around a bare "Is a directory": the file is in the outer message only.
        return e instanceof UncheckedIOException u && u.getMessage() != null && !u.getMessage().equals(String.valueOf(
                t)) ? u.getMessage().replaceFirst("^cannot read ", "") + " (" + t.getMessage() + ")"
                : String.valueOf(t.getMessage());
    }

    /** The exit code of a command that threw {@code e}: 2 bad usage, 3 unavailable (try again later), 4 internal. */
    static int exitCode(Exception e) {
        return switch (e) {
            case ConfigException c -> USAGE;
            case InvalidInputException i -> USAGE;
            case NotFoundException n -> USAGE;
            // Something under way (a tuning, a back-fill, a writer stopping): try again later.
            case ConflictException c -> c.passes() ? UNAVAILABLE : USAGE;
            case UnavailableException u -> UNAVAILABLE;
            // A store down or restarting, a full disk, a quota: what a server answers 503, 507 or 429, exit 3
            // (try again later), not 4 with a stack trace.
            // A quota that frees with time (429); one that waits for deletions (413) is the caller's to fix, as through
            // a server. A damaged index is not one to try again: its message says how to repair it.
            case QuotaExceededException q -> q.retryAfterSeconds() > 0 ? UNAVAILABLE : USAGE;
            case StoreException s when StorageProblems.kind(s) == StorageProblems.Kind.DISK_FULL
                    || StorageProblems.kind(s) == StorageProblems.Kind.NOT_WRITABLE
                    || StorageProblems.unreachable(s) -> UNAVAILABLE;
            case PolyragException p -> INTERNAL;
            // A file named on the command line that is missing or unreadable is bad usage, said in one line.
            case NoSuchFileException f -> USAGE;
            case AccessDeniedException f -> USAGE;
            // A folder named where a file is wanted ("Is a directory"), a file that is not UTF-8 text.
            case FileSystemException f -> USAGE;
            case CharacterCodingException c -> USAGE;
            case UncheckedIOException u when u.getCause() instanceof NoSuchFileException
                    || u.getCause() instanceof AccessDeniedException || u.getCause() instanceof CharacterCodingException
                    || "Is a directory".equals(u.getCause().getMessage()) -> USAGE;
            case IOException io when "Is a directory".equals(io.getMessage()) -> USAGE;
            default -> INTERNAL;
        };
    }

    private static boolean damaged(Throwable e) {
        return e instanceof StoreException s && StorageProblems.kind(s) == StorageProblems.Kind.DAMAGED;
    }

    /** Runs a command line, printing to the given writers; returns the exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new PolyragCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            int code = exitCode(e);
            String message = "polyrag: " + (e instanceof CharacterCodingException ? "a file given is not UTF-8 text "
                    + "(" + e + "): save it as UTF-8" : code == USAGE && (e instanceof FileSystemException
                    || e instanceof UncheckedIOException) ? "cannot read " + fileOf(e) : e.getMessage()
                    + ("Is a directory".equals(e.getMessage()) ? ": a folder was given where a file is wanted" : ""));
            if (Logging.json()) {
                // Under JSON logs the line that says why a command (a server) stopped is a JSON line too: a log
                // shipper reading standard error dropped the one line an operator needed.
                System.Logger log = System.getLogger(Main.class.getName());
                if (code == INTERNAL && !damaged(e)) {
                    log.log(System.Logger.Level.ERROR, message, e);
                } else {
                    log.log(System.Logger.Level.ERROR, message);
                }
                return code;
            }
            // A damaged store's message says how to repair it: a stack trace above it only buried it.
            if (code == INTERNAL && !damaged(e)) {
                e.printStackTrace(err);
            }
            err.println(message);
            return code;
        });
        try {
            return cl.execute(args);
        } catch (Throwable t) {
            // picocli catches exceptions only: an Error (out of memory, a native library that would not load, a
            // stack overflow) exits as an internal failure, not with the JVM's 1, which means "some inputs failed".
            t.printStackTrace(err);
            err.println("polyrag: internal error: " + t);
            return INTERNAL;
        }
    }
}
