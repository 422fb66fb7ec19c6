package io.polyrag.core.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the catalog keeps about a figure beside its chunk (whose text is the caption, then the text read from the
 * image): the image itself is in the blob store under {@link #blobKey(String, long, int)}.
 *
 * @param number the figure's number within its document version, from 1, in reading order
 * @param caption its caption ("Figure 3: Sales by region"), or empty when none was found
 * @param mediaType the stored image's type ({@code image/png}, {@code image/jpeg})
 * @param width pixels
 * @param height pixels
 * @param anchors ordinals of the text chunks it belongs with (they mention it, or lie next to it on its page or
 *     slide), in reading order
 * @param box where it sits on its page or slide, or null where the format does not say (Word)
 */
public record Figure(int number, String caption, String mediaType, int width, int height, List<Integer> anchors,
        Box box) {
    /** A rectangle in points (1/72 inch) from the top left of the page or slide. */
    public record Box(double x, double y, double width, double height) {
        String encode() {
            return String.format(Locale.ROOT, "%.1f,%.1f,%.1f,%.1f", x, y, width, height);
        }

        static Box decode(String s) {
            if (s.isEmpty()) {
                return null;
            }
            String[] p = s.split(",");
            return new Box(Double.parseDouble(p[0]), Double.parseDouble(p[1]), Double.parseDouble(p[2]),
                    Double.parseDouble(p[3]));
        }
    }

    public Figure(int number, String caption, String mediaType, int width, int height, List<Integer> anchors) {
        this(number, caption, mediaType, width, height, anchors, null);
    }

    public Figure {
        caption = caption == null ? "" : caption;
        anchors = anchors == null ? List.of() : List.copyOf(anchors);
        if (number < 1) {
            throw new IllegalArgumentException("figure numbers start at 1, got " + number);
        }
    }

    /** The blob store key of figure {@code number} of a document version. */
    public static String blobKey(String documentId, long version, int number) {
        return "figure-" + documentId + "-v" + version + "-" + number;
    }

    /**
     * The catalog's one-column form: {@code number|media type|width|height|anchor,anchor|x,y,w,h|caption} (the
     * caption last, so it may hold any character).
     */
    public String encode() {
        return number + "|" + mediaType + "|" + width + "|" + height + "|"
                + String.join(",", anchors.stream().map(String::valueOf).toList()) + "|"
                + (box == null ? "" : box.encode()) + "|" + caption;
    }

    /** Reads {@link #encode()}'s form; null for an empty column (a chunk that is not a figure). */
    public static Figure decode(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        String[] p = s.split("\\|", 7);
        if (p.length < 7) {
            throw new IllegalArgumentException("not a stored figure: " + Ids.abbreviate(s, 40));
        }
        List<Integer> anchors = p[4].isEmpty() ? List.of()
                : Arrays.stream(p[4].split(",")).map(Integer::valueOf).toList();
        return new Figure(Integer.parseInt(p[0]), p[6], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3]), anchors,
                Box.decode(p[5]));
    }
}
