package io.polyrag.ingest;

import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ExtractedFigure;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which text chunks a figure belongs with, so retrieving them brings the figure along: the chunks that mention its
 * label ("as Figure 3 shows", "see Fig. 3"), then those on its page or slide; where the format has no pages, the
 * chunk that holds the text next to it (its caption or the paragraph before it). Always at least one: the last
 * chunk before its page, else the first.
 */
final class FigureAnchors {
    /** Most anchors one figure gets: the mentions and the chunks of its own page come first. */
    static final int MAX = 8;
    private static final Pattern LABEL = Pattern.compile("^(\\p{L}+)\\.?\\s*(\\S+)$");
    private static final Pattern PAGES = Pattern.compile("^(?:page|pages|slide|slides)\\s+(\\d+)(?:\\s*[–-]\\s*(\\d+))?$");

    private FigureAnchors() {
    }

    /** The ordinals of the text chunks the figure is anchored to, in reading order. */
    static List<Integer> anchors(ExtractedFigure figure, List<ChunkDraft> texts) {
        Set<Integer> out = new LinkedHashSet<>();
        Pattern mention = mention(figure.label());
        if (mention != null) {
            for (int i = 0; i < texts.size() && out.size() < MAX; i++) {
                if (mention.matcher(texts.get(i).text()).find()) {
                    out.add(i);
                }
            }
        }
        int page = page(figure.location(), false);
        if (page > 0) {
            for (int i = 0; i < texts.size() && out.size() < MAX; i++) {
                ChunkDraft d = texts.get(i);
                if (page(d.location(), false) <= page && page <= page(d.location(), true)
                        && sameKind(d.location(), figure.location())) {
                    out.add(i);
                }
            }
        }
        if (out.isEmpty() && !figure.near().isBlank()) {
            String near = squash(figure.near());
            String probe = near.substring(0, Math.min(near.length(), 60));
            for (int i = 0; i < texts.size(); i++) {
                if (squash(texts.get(i).text()).contains(probe)) {
                    out.add(i);
                    break;
                }
            }
        }
        if (out.isEmpty()) {
            int before = 0;
            for (int i = 0; i < texts.size(); i++) {
                int p = page(texts.get(i).location(), true);
                if (page > 0 && p > 0 && p < page) {
                    before = i;
                }
            }
            out.add(before);
        }
        List<Integer> sorted = new ArrayList<>(out);
        sorted.sort(null);
        return sorted;
    }

    /** What a figure's chunk says: its caption, then the text read from it; its place when it has neither. */
    static String text(ExtractedFigure figure) {
        String caption = figure.caption().strip();
        String inside = figure.text().strip();
        if (caption.isEmpty() && inside.isEmpty()) {
            return figure.location().isEmpty() ? "Figure" : "Figure on " + figure.location();
        }
        return caption.isEmpty() ? inside : inside.isEmpty() ? caption : caption + "\n" + inside;
    }

    /** A pattern finding the label in prose ("Figure 3", "Fig. 3", "figure 3"), not "Figure 30"; null for none. */
    private static Pattern mention(String label) {
        Matcher m = LABEL.matcher(label.strip());
        if (!m.matches()) {
            return null;
        }
        String word = m.group(1).toLowerCase(Locale.ROOT);
        String kind = word.startsWith("fig") ? "(?:figure|fig\\.?)" : Pattern.quote(word);
        return Pattern.compile("(?i)\\b" + kind + "\\s*" + Pattern.quote(m.group(2)) + "(?![\\w.-]*\\d)");
    }

    /** The first (or last) page or slide a location names ({@code page 3}, {@code pages 3–4}); 0 for none. */
    private static int page(String location, boolean last) {
        Matcher m = PAGES.matcher(location == null ? "" : location.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return 0;
        }
        return Integer.parseInt(last && m.group(2) != null ? m.group(2) : m.group(1));
    }

    private static boolean sameKind(String a, String b) {
        return a.toLowerCase(Locale.ROOT).startsWith("slide") == b.toLowerCase(Locale.ROOT).startsWith("slide");
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
    }
}
