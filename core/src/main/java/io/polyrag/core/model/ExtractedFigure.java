package io.polyrag.core.model;

import java.util.Objects;

/**
 * A figure as a parser took it from a file, before it is indexed.
 *
 * @param label its label when the caption gives one ({@code Figure 3}, {@code Table 2}), else empty; text chunks
 *     that mention the label are the figure's anchors
 * @param caption the caption, or empty
 * @param text text read from the figure itself (the words inside a vector drawing, or OCR of an image), or empty
 * @param location its page or slide ({@code page 3}, {@code slide 2}), empty when the format has none
 * @param near a snippet of the text next to it in the document, to anchor it where the format has no pages
 * @param mediaType the image's type
 * @param bytes the image
 * @param width pixels
 * @param height pixels
 * @param box where it sits on its page or slide, or null where the format does not say
 */
public record ExtractedFigure(String label, String caption, String text, String location, String near,
        String mediaType, byte[] bytes, int width, int height, Figure.Box box) {
    public ExtractedFigure {
        label = label == null ? "" : label;
        caption = caption == null ? "" : caption;
        text = text == null ? "" : text;
        location = location == null ? "" : location;
        near = near == null ? "" : near;
        Objects.requireNonNull(mediaType, "mediaType");
        Objects.requireNonNull(bytes, "bytes");
    }
}
