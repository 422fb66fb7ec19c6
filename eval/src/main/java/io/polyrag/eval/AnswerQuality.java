package io.polyrag.eval;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.PathIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How often an answer quotes the sentence that answers: questions, each with the sentence of the corpus a good answer
 * must contain, asked through the facade after the corpus is indexed. The answer is the configured one (extractive
 * offline, or the language model's); a question counts as answered when its expected sentence appears in the answer,
 * whitespace and citation marks aside.
 *
 * <p>The questions file is tab-separated: a question, a tab, the expected sentence; lines starting with {@code #} are
 * comments.
 */
public final class AnswerQuality {
    private AnswerQuality() {
    }

    /** One question and its outcome. */
    public record Case(String question, String expected, String answer, boolean quoted) {
    }

    /** The outcome of every question, in file order. */
    public record Report(List<Case> cases, long documents) {
        public long quoted() {
            return cases.stream().filter(Case::quoted).count();
        }

        public double rate() {
            return cases.isEmpty() ? 0 : (double) quoted() / cases.size();
        }
    }

    /** Reads the questions file. */
    public static List<String[]> questions(Path file) {
        List<String[]> out = new ArrayList<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                    throw new InvalidInputException(file + " line " + n + ": expected a question, a tab and the "
                            + "sentence the answer must quote");
                }
                out.add(new String[] {parts[0].strip(), parts[1].strip()});
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return out;
    }

    /** Indexes {@code corpus} into {@code polyrag} (an empty data directory), then asks every question. */
    public static Report run(Polyrag polyrag, Path questionsFile, List<Path> corpus) {
        List<String[]> questions = questions(questionsFile);
        polyrag.ingest().paths(new PathIngest(corpus, null, List.of(), List.of()), ProgressListener.NONE);
        List<Case> cases = new ArrayList<>();
        for (String[] q : questions) {
            Answer a = polyrag.search().answer(SearchRequest.of(q[0], polyrag.search().defaultAnswerTopK()), null);
            cases.add(new Case(q[0], q[1], a.answer(), normalise(a.answer()).contains(normalise(q[1]))));
        }
        return new Report(cases, polyrag.admin().status().documents());
    }

    private static String normalise(String s) {
        return s.replaceAll("\\[\\d+]", " ").replaceAll("\\s+", " ").strip();
    }
}
