package io.polyrag.cli;

import io.polyrag.core.ConfigException;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.UnavailableException;
import java.io.PrintWriter;
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
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line, printing to the given writers; returns the exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new PolyragCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            int code = switch (e) {
                case ConfigException c -> USAGE;
                case InvalidInputException i -> USAGE;
                case NotFoundException n -> USAGE;
                case ConflictException c -> USAGE;
                case UnavailableException u -> UNAVAILABLE;
                case PolyragException p -> INTERNAL;
                default -> {
                    e.printStackTrace(err);
                    yield INTERNAL;
                }
            };
            err.println("polyrag: " + e.getMessage());
            return code;
        });
        return cl.execute(args);
    }
}
