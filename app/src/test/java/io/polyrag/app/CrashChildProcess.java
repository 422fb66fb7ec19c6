package io.polyrag.app;

import io.polyrag.testing.ProcessOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running {@link CrashChild}: commands go to its standard input, its output is read line by line, and
 * a command's acknowledgement is awaited by its prefix. Started, it has printed {@code READY}.
 */
final class CrashChildProcess {
    private final Process process;
    private final PrintWriter in;
    private final ProcessOutput output;

    /**
     * @param prefix what runs the JVM (a tracer), or nothing
     * @param jvmOptions options of the child JVM
     * @param settings the child's polyrag settings, {@code key=value}
     */
    CrashChildProcess(List<String> prefix, List<String> jvmOptions, Map<String, String> settings)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashChild.class.getName()));
        settings.forEach((k, v) -> cmd.add(k + "=" + v));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        output = new ProcessOutput(process);
        await("READY");
    }

    /** Sends one command, its fields separated by tabs. */
    void send(String... fields) {
        in.println(String.join("\t", fields));
    }

    /** The next output line starting with {@code prefix}; fails with the child's output if none comes. */
    String await(String prefix) throws InterruptedException {
        return output.await(l -> l.startsWith(prefix), "'" + prefix + "'", Duration.ofSeconds(90));
    }

    /** Kills it with SIGKILL and returns its exit status. */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the child did not end after SIGKILL");
        }
        return process.exitValue();
    }

    /** Ends its input, so it closes and exits; killed if it has not within a minute. */
    void stop() throws InterruptedException {
        in.close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
