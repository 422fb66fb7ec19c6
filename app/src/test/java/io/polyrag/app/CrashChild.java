package io.polyrag.app;

import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.app.api.TextIngest;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.JobInfo;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The process a crash test kills: opens the data directory with the settings given as {@code key=value} arguments,
 * prints {@code READY}, then runs one command per line of standard input (fields separated by tabs) and prints
 * {@code ACK <what>} the moment the facade has answered, as a front door would acknowledge it. Commands:
 * {@code text URI TEXT}, {@code delete DOCUMENT_ID}, {@code upload NAME TEXT [NAME TEXT...]} (a job; the ACK
 * carries its id) and {@code wait JOB_ID}.
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (String a : args) {
            settings.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        }
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), settings))) {
            ack("READY");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split("\t");
                switch (f[0]) {
                    case "text" -> {
                        IngestReport r = p.ingest().text(new TextIngest(f[2], null, f[1], "text", KnowledgeBase.of("kb")));
                        ack("ACK text " + f[1] + " added=" + r.added() + " updated=" + r.updated() + " id="
                                + (r.indexed().isEmpty() ? "" : r.indexed().get(0).documentId()));
                    }
                    case "delete" -> ack("ACK delete " + p.documents().delete(List.of(f[1])));
                    case "upload" -> {
                        Path dir = p.uploads().newStagingDir();
                        List<ReceivedFile> files = new ArrayList<>();
                        for (int i = 1; i + 1 < f.length; i += 2) {
                            Path file = dir.resolve(Integer.toString(i));
                            Files.writeString(file, f[i + 1]);
                            files.add(new ReceivedFile(f[i], file));
                        }
                        ack("ACK upload " + p.uploads().submit(KnowledgeBase.of("kb"), dir, files, false));
                    }
                    case "wait" -> {
                        JobInfo j = p.jobs().get(f[1]);
                        while (!j.status().finished()) {
                            Thread.sleep(20);
                            j = p.jobs().get(f[1]);
                        }
                        ack("ACK wait " + j.status());
                    }
                    default -> throw new IllegalArgumentException("unknown command " + f[0]);
                }
            }
        }
    }

    private static void ack(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
