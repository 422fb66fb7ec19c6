package io.polyrag.core.model;

import java.util.List;

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
 */
public record Figure(int number, String caption, String mediaType, int width, int height, List<Integer> anchors) {
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
     * The catalog's one-column form: {@code number|media type|width|height|anchor,anchor|caption} (the caption last,
     * so it may hold any character).
     */
    public String encode() {
        return number + "|" + mediaType + "|" + width + "|" + height + "|"
                + String.join(",", anchors.stream().map(String::valueOf).toList()) + "|" + caption;
    }

    /** Reads {@link #encode()}'s form; null for an empty column (a chunk that is not a figure). */
    public static Figure decode(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        String[] p = s.split("\\|", 6);
        if (p.length < 6) {
            throw new IllegalArgumentException("not a stored figure: " + Ids.abbreviate(s, 40));
        }
        List<Integer> anchors = p[4].isEmpty() ? List.of()
                : java.util.Arrays.stream(p[4].split(",")).map(Integer::valueOf).toList();
        return new Figure(Integer.parseInt(p[0]), p[5], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3]), anchors);
    }
}
