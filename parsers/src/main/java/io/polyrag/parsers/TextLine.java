package io.polyrag.parsers;

import java.awt.geom.Rectangle2D;
import java.util.List;

/** A line of text on a page or slide, in points from its top left, and how a figure's caption is found among them. */
record TextLine(String text, Rectangle2D box) {

    /**
     * The caption line of a figure: a labelled line ("Figure 3 …") just below or above it, or, when {@code labelled}
     * is false, a short line right below it.
     */
    static TextLine caption(List<TextLine> lines, Rectangle2D box, boolean labelled) {
        TextLine best = null;
        double bestGap = Double.MAX_VALUE;
        for (TextLine l : lines) {
            Rectangle2D b = l.box();
            boolean overlaps = b.getMaxX() > box.getMinX() - 24 && b.getMinX() < box.getMaxX() + 24;
            if (!overlaps || box.contains(b.getCenterX(), b.getCenterY())) {
                continue;
            }
            double below = b.getMinY() - box.getMaxY();
            double above = box.getMinY() - b.getMaxY();
            double gap = below >= -2 ? below : above >= -2 ? above + 12 : Double.MAX_VALUE;
            if (labelled ? FigureExtractor.LABEL.matcher(l.text()).find() && gap <= 48
                    : below >= -2 && below <= 16 && l.text().length() <= 120) {
                if (gap < bestGap) {
                    bestGap = gap;
                    best = l;
                }
            }
        }
        return best;
    }
}
