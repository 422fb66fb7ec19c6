package io.polyrag.ingest;

import io.polyrag.core.model.Block;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.port.Chunker;
import io.polyrag.core.port.TokenCounter;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Cuts documents by their structure, sized in the embedding model's tokens.
 *
 * <ul>
 *   <li>Prose: consecutive paragraphs under the same headings form a section; a section is packed sentence by sentence
 *       into chunks of at most {@code maxTokens}; each chunk after the first repeats the previous chunk's trailing
 *       sentences, up to {@code overlapTokens}, so a fact that straddles a cut is whole in one chunk. A chunk is a
 *       contiguous span of the parsed text. A sentence longer than a chunk is cut between words.</li>
 *   <li>Tables: whole rows only; a table larger than a chunk is split between rows and every part starts with the
 *       header row.</li>
 *   <li>Code: split at blank lines, else between lines, never inside a line; each chunk is fenced with its
 *       language.</li>
 * </ul>
 * A heading change always ends a chunk, so every chunk has one heading path.
 */
public final class StructuredChunker implements Chunker {
    /** Characters a token spans at most, as the chunker counts: real tokens are a few characters, rarely 16. */
    static final int CHARS_PER_TOKEN_AT_MOST = 16;
    private final TokenCounter counter;
    private final int maxTokens;
    private final int overlapTokens;

    public StructuredChunker(TokenCounter counter, int maxTokens, int overlapTokens) {
        if (maxTokens < 1 || overlapTokens < 0 || overlapTokens >= maxTokens) {
            throw new IllegalArgumentException("need 0 <= overlap < max tokens, got overlap " + overlapTokens
                    + " and max " + maxTokens);
        }
        // Never fewer tokens than one per 16 characters: a WordPiece tokenizer counts any run of letters or digits
        // longer than 100 characters as one unknown token (the default model's), so a 10 MB hex string fit a chunk
        // of "one token" and became one passage of any size.
        // A text whose floor alone is over a chunk is not counted at all: every count is compared with at most
        // maxTokens, and the model's tokenizer holds a record of every token at once (a 30 MB line or a sheet of
        // 40 million characters took gigabytes, on and off the heap, to learn it was too long).
        this.counter = text -> {
            int floor = (text.length() + CHARS_PER_TOKEN_AT_MOST - 1) / CHARS_PER_TOKEN_AT_MOST;
            return floor > maxTokens ? floor : Math.max(counter.count(text), floor);
        };
        this.maxTokens = maxTokens;
        this.overlapTokens = overlapTokens;
    }

    /** A span of the parsed text with its token count. */
    private record Span(int start, int end, int tokens, boolean paragraphEnd) {
    }

    @Override
    public List<ChunkDraft> chunk(ParsedDocument doc) {
        List<ChunkDraft> out = new ArrayList<>();
        List<Block> section = new ArrayList<>();
        for (Block b : doc.blocks()) {
            if (b.kind() == ChunkKind.PROSE) {
                if (!section.isEmpty() && (!section.getFirst().headingPath().equals(b.headingPath())
                        || newPart(section.getLast().location(), b.location()))) {
                    prose(doc, section, out);
                    section.clear();
                }
                section.add(b);
                continue;
            }
            prose(doc, section, out);
            section.clear();
            if (b.kind() == ChunkKind.TABLE) {
                table(doc, b, out);
            } else {
                code(b, out);
            }
        }
        prose(doc, section, out);
        return out;
    }

    private void prose(ParsedDocument doc, List<Block> section, List<ChunkDraft> out) {
        if (section.isEmpty()) {
            return;
        }
        List<Span> spans = new ArrayList<>();
        for (Block b : section) {
            List<Span> sentences = sentences(doc.text(), b.start(), b.end());
            for (int i = 0; i < sentences.size(); i++) {
                Span s = sentences.get(i);
                spans.add(new Span(s.start(), s.end(), s.tokens(), i == sentences.size() - 1));
            }
        }
        List<String> path = section.getFirst().headingPath();
        int from = 0;
        while (from < spans.size()) {
            int to = from;
            int tokens = 0;
            while (to < spans.size() && (to == from || tokens + spans.get(to).tokens() <= maxTokens)) {
                tokens += spans.get(to).tokens();
                to++;
            }
            int start = spans.get(from).start();
            int end = spans.get(to - 1).end();
            emit(doc.text(), ChunkKind.PROSE, start, end, path, location(section, start, end), out);
            if (to >= spans.size()) {
                break;
            }
            int next = Math.max(from + 1, overlapStart(spans, from, to));
            // The overlap gives way to the next new sentence: beside one longer than max - overlap (a piece of a
            // sentence cut between words is about max long), a chunk held only the overlap, text the chunk before
            // already had, once for each of its sentences.
            int carried = 0;
            for (int i = next; i < to; i++) {
                carried += spans.get(i).tokens();
            }
            while (next < to && carried + spans.get(to).tokens() > maxTokens) {
                carried -= spans.get(next++).tokens();
            }
            from = next;
        }
    }

    /** Where the next chunk starts: the trailing sentences of [from, to) that fit in the overlap budget. */
    private int overlapStart(List<Span> spans, int from, int to) {
        int start = to;
        int tokens = 0;
        while (start - 1 > from && tokens + spans.get(start - 1).tokens() <= overlapTokens) {
            start--;
            tokens += spans.get(start).tokens();
        }
        return start;
    }

    /** Sentences of text[start, end), each at most {@code maxTokens} (longer ones cut between words). */
    private List<Span> sentences(String text, int start, int end) {
        BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
        it.setText(text.substring(start, end));
        List<Span> out = new ArrayList<>();
        int s = it.first();
        for (int e = it.next(); e != BreakIterator.DONE; s = e, e = it.next()) {
            int a = start + s;
            int b = start + e;
            while (a < b && Character.isWhitespace(text.charAt(a))) {
                a++;
            }
            while (b > a && Character.isWhitespace(text.charAt(b - 1))) {
                b--;
            }
            if (a < b) {
                lines(text, a, b, out);
            }
        }
        return out;
    }

    /**
     * A sentence too long for a chunk that runs over several lines (a list, a file of lines without full stops: a
     * line break ends no sentence) is cut at its line ends, each line then as a sentence; cut between words, a line
     * such as "- retries: default 5" was split between "default" and "5", and the pieces shared no overlap.
     */
    private void lines(String text, int start, int end, List<Span> out) {
        int nl = text.indexOf('\n', start, end); // within the sentence: to the text's end, quadratic
        if (nl < 0 || nl >= end || counter.count(text.substring(start, end)) <= maxTokens) {
            splitLong(text, start, end, out);
            return;
        }
        int from = start;
        for (int i = start; i <= end; i++) {
            if (i == end || text.charAt(i) == '\n') {
                int a = from;
                int b = i;
                while (a < b && Character.isWhitespace(text.charAt(a))) {
                    a++;
                }
                while (b > a && Character.isWhitespace(text.charAt(b - 1))) {
                    b--;
                }
                if (a < b) {
                    splitLong(text, a, b, out);
                }
                from = i + 1;
            }
        }
    }

    private void splitLong(String text, int start, int end, List<Span> out) {
        splitLong(text, start, end, out, maxTokens);
    }

    /** text[start, end) in spans of at most {@code limit} tokens: whole when it fits, else cut between words. */
    private void splitLong(String text, int start, int end, List<Span> out, int limit) {
        int tokens = counter.count(text.substring(start, end));
        if (tokens <= limit) {
            out.add(new Span(start, end, tokens, false));
            return;
        }
        int pieceStart = start;
        int pieceTokens = 0;
        int i = start;
        while (i < end) {
            int wordEnd = i;
            while (wordEnd < end && !Character.isWhitespace(text.charAt(wordEnd))) {
                wordEnd++;
            }
            int t = Math.max(1, counter.count(text.substring(i, wordEnd)));
            if (t > limit) {
                // One "word" longer than a chunk (a base64 blob, a run with no space): cut between characters.
                if (pieceTokens > 0) {
                    out.add(new Span(pieceStart, trimEnd(text, pieceStart, i), pieceTokens, false));
                }
                cutWord(text, i, wordEnd, out, limit);
                i = wordEnd;
                while (i < end && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
                pieceStart = i;
                pieceTokens = 0;
                continue;
            }
            if (pieceTokens > 0 && pieceTokens + t > limit) {
                out.add(new Span(pieceStart, trimEnd(text, pieceStart, i), pieceTokens, false));
                pieceStart = i;
                pieceTokens = 0;
            }
            pieceTokens += t;
            i = wordEnd;
            while (i < end && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
        }
        if (pieceStart < end) {
            out.add(new Span(pieceStart, end, pieceTokens, false));
        }
    }

    /**
     * text[start, end), one "word" (a base64 blob, a run of Thai or Chinese without spaces), in pieces of at most
     * {@code limit} tokens: cut at a word boundary in the piece's second half where there is one, else between two
     * user-perceived characters — never inside a surrogate pair, before a combining mark, or within an emoji
     * sequence.
     */
    private void cutWord(String text, int start, int end, List<Span> out, int limit) {
        String word = text.substring(start, end);
        BreakIterator words = BreakIterator.getWordInstance(Locale.ROOT);
        BreakIterator characters = BreakIterator.getCharacterInstance(Locale.ROOT);
        int from = 0;
        while (from < word.length()) {
            int to = Math.min(word.length(), from + limit);
            int n = counter.count(word.substring(from, to));
            while (n > limit && to - from > 1) {
                to = from + (to - from) / 2;
                n = counter.count(word.substring(from, to));
            }
            if (to < word.length()) {
                // The rules read a window round the piece only: over the whole run, the word rules walked a run of
                // digits to its end and back for every piece (a 2 MB line took minutes).
                int windowEnd = Math.min(word.length(), to + BOUNDARY_CONTEXT);
                String window = word.substring(from, windowEnd);
                words.setText(window);
                characters.setText(window);
                int cut = to - from;
                int at = boundaryAtOrBefore(words, cut);
                // The word rules keep no emoji sequence whole: a word boundary must be a character's too.
                if (at <= cut / 2 || !characters.isBoundary(at)) {
                    at = boundaryAtOrBefore(characters, cut);
                }
                if (at <= 0) {
                    // One character longer than the guess (an emoji family is 11 chars): whole if it fits.
                    int next = characters.following(0);
                    // (the window's end is a boundary only where the run ends there)
                    at = next != BreakIterator.DONE && (next < window.length() || windowEnd == word.length())
                            && counter.count(window.substring(0, next)) <= limit ? next
                            : Character.isHighSurrogate(word.charAt(to - 1)) && cut > 1 ? cut - 1 : cut;
                }
                if (at > 0 && at != cut) {
                    to = from + at;
                    n = counter.count(word.substring(from, to));
                }
            }
            out.add(new Span(start + from, start + to, Math.max(1, n), false));
            from = to;
        }
    }

    /** Characters past a cut the boundary rules may read (a grapheme or a word's end beyond it). */
    private static final int BOUNDARY_CONTEXT = 64;

    private static int boundaryAtOrBefore(BreakIterator boundaries, int offset) {
        return boundaries.isBoundary(offset) ? offset : boundaries.preceding(offset);
    }

    private static int trimEnd(String text, int start, int end) {
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /**
     * A new page, slide or sheet starts a new chunk, so every chunk cites one place: a citation to "page 3" is worth
     * more than the few tokens a short page leaves unused.
     */
    private static boolean newPart(String before, String now) {
        return !before.equals(now);
    }

    private void emit(String text, ChunkKind kind, int start, int end, List<String> path, String location,
            List<ChunkDraft> out) {
        String t = text.substring(start, end);
        out.add(new ChunkDraft(kind, t, path, start, end, counter.count(t), location));
    }

    /** A table cut as text (a header too wide to repeat), its chunks still a table's: hits say so. */
    private void tableAsText(ParsedDocument doc, Block b, List<ChunkDraft> out) {
        int from = out.size();
        prose(doc, List.of(b), out);
        for (int i = from; i < out.size(); i++) {
            ChunkDraft c = out.get(i);
            out.set(i, new ChunkDraft(ChunkKind.TABLE, c.text(), c.headingPath(), c.startOffset(), c.endOffset(),
                    c.tokenCount(), c.location()));
        }
    }

    /**
     * The location of the text [start, end) of a section: its blocks' locations in order, pages merged into a range
     * ({@code page 3}, {@code pages 3–4}); empty when the blocks have none.
     */
    static String location(List<Block> blocks, int start, int end) {
        LinkedHashSet<String> found = new LinkedHashSet<>();
        // The blocks are in reading order: the first one reaching past start found by halving, then only those up to
        // end read (every block for every chunk made a long section's chunking quadratic: minutes for a big file).
        int lo = 0;
        int hi = blocks.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (blocks.get(mid).end() > start) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        for (int i = lo; i < blocks.size() && blocks.get(i).start() < end; i++) {
            Block b = blocks.get(i);
            if (b.end() > start && !b.location().isEmpty()) {
                found.add(b.location());
            }
        }
        if (found.isEmpty()) {
            return "";
        }
        if (found.size() > 1 && found.stream().allMatch(l -> l.matches("page \\d+"))) {
            List<Integer> pages = found.stream().map(l -> Integer.parseInt(l.substring(5))).sorted().toList();
            return "pages " + pages.getFirst() + "\u2013" + pages.getLast();
        }
        return String.join(", ", found);
    }

    private void table(ParsedDocument doc, Block b, List<ChunkDraft> out) {
        String[] rows = b.text().split("\n");
        String header = rows[0];
        int headerTokens = counter.count(header);
        int rowStart = b.start() + header.length() + 1;
        int whole = counter.count(b.text());
        if (whole <= maxTokens) {
            out.add(new ChunkDraft(ChunkKind.TABLE, b.text(), b.headingPath(), b.start(), b.end(), whole,
                    b.location()));
            return;
        }
        // A header that would fill half of every part (thousands of columns): cut as text, so no chunk outgrows what
        // the model reads. A row that fits no part beside the header is cut alone, each piece under the header: the
        // whole table was cut as prose for one long cell, every chunk but the first without its column names.
        if (headerTokens > maxTokens / 2) {
            tableAsText(doc, b, out);
            return;
        }
        // Each row counted once (counting is the chunker's costly step).
        int[] rowTokens = new int[rows.length];
        for (int i = 1; i < rows.length; i++) {
            rowTokens[i] = counter.count(rows[i]);
        }
        StringBuilder part = new StringBuilder(header);
        int partTokens = headerTokens;
        int partStart = b.start();
        int offset = rowStart;
        int partRows = 0;
        for (int i = 1; i < rows.length; i++) {
            int t = rowTokens[i];
            if (headerTokens + t > maxTokens) {
                if (partRows > 0) {
                    out.add(new ChunkDraft(ChunkKind.TABLE, part.toString(), b.headingPath(), partStart, offset - 1,
                            partTokens, b.location()));
                }
                longRow(doc, b, header, headerTokens, offset, offset + rows[i].length(), out);
                offset += rows[i].length() + 1;
                part = new StringBuilder(header);
                partTokens = headerTokens;
                partStart = offset;
                partRows = 0;
                continue;
            }
            if (partRows > 0 && partTokens + t > maxTokens) {
                out.add(new ChunkDraft(ChunkKind.TABLE, part.toString(), b.headingPath(), partStart, offset - 1,
                        partTokens, b.location()));
                part = new StringBuilder(header);
                partTokens = headerTokens;
                partStart = offset;
                partRows = 0;
            }
            part.append('\n').append(rows[i]);
            partTokens += t;
            partRows++;
            offset += rows[i].length() + 1;
        }
        if (partRows > 0) {
            out.add(new ChunkDraft(ChunkKind.TABLE, part.toString(), b.headingPath(), partStart, b.end(), partTokens,
                    b.location()));
        }
    }

    /** A table row too long to share a chunk with its header: in pieces, each under the header. */
    private void longRow(ParsedDocument doc, Block b, String header, int headerTokens, int start, int end,
            List<ChunkDraft> out) {
        List<Span> pieces = new ArrayList<>();
        splitLong(doc.text(), start, end, pieces, maxTokens - headerTokens);
        for (Span s : pieces) {
            out.add(new ChunkDraft(ChunkKind.TABLE, header + "\n" + doc.text().substring(s.start(), s.end()),
                    b.headingPath(), s.start(), s.end(), headerTokens + s.tokens(), b.location()));
        }
    }

    private void code(Block b, List<ChunkDraft> out) {
        String fenceOpen = "```" + b.language() + "\n";
        int budget = Math.max(1, maxTokens - counter.count(fenceOpen + "```"));
        List<Span> lines = new ArrayList<>();
        int offset = b.start();
        String[] split = b.text().split("\n", -1);
        for (int i = 0; i < split.length; i++) {
            String line = split[i];
            boolean blankAfter = i + 1 < split.length && split[i + 1].isBlank();
            int tokens = counter.count(line) + 1;
            if (tokens > budget) {
                // A line longer than a chunk (minified code, a data literal): cut between words, then characters.
                List<Span> pieces = new ArrayList<>();
                splitLong(b.text(), offset - b.start(), offset - b.start() + line.length(), pieces, budget);
                pieces.forEach(p -> lines.add(new Span(b.start() + p.start(), b.start() + p.end(), p.tokens(),
                        false)));
            } else {
                lines.add(new Span(offset, offset + line.length(), tokens, blankAfter));
            }
            offset += line.length() + 1;
        }
        int from = 0;
        while (from < lines.size()) {
            int to = from;
            int tokens = 0;
            int lastBlank = -1;
            while (to < lines.size() && (to == from || tokens + lines.get(to).tokens() <= budget)) {
                tokens += lines.get(to).tokens();
                if (lines.get(to).paragraphEnd()) {
                    lastBlank = to + 1;
                }
                to++;
            }
            if (to < lines.size() && lastBlank > from + 1) {
                to = lastBlank;
            }
            int start = lines.get(from).start();
            int end = lines.get(to - 1).end();
            // Leading blank lines and trailing space go, not the first line's indentation: a Python method or a YAML
            // key cut from its class started at column 0, its body still indented (YAML changed meaning).
            String raw = b.text().substring(start - b.start(), end - b.start());
            int lead = 0;
            for (int i = 0; i < raw.length() && Character.isWhitespace(raw.charAt(i)); i++) {
                lead = raw.charAt(i) == '\n' ? i + 1 : lead;
            }
            String body = raw.substring(lead).stripTrailing();
            start += lead;
            if (!body.isEmpty()) {
                String fenced = fenceOpen + body + "\n```";
                out.add(new ChunkDraft(ChunkKind.CODE, fenced, b.headingPath(), start, end, counter.count(fenced),
                        b.location()));
            }
            from = to;
        }
    }
}
