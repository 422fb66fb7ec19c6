package io.polyrag.parsers;

import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.util.Matrix;

/** One PDF page's drawn images and vector paths, found in one pass over its content stream. */
final class PdfPageScan extends PDFGraphicsStreamEngine {
    /** An image drawn on a page, or a region of vector drawing. */
    record Candidate(int page, Rectangle2D box, PDImageXObject image, boolean drawing) {
    }

    final int pageIndex;
    final double pageWidth;
    final double pageHeight;
    final double left;
    final double top;
    final List<Candidate> images = new ArrayList<>();
    final List<Rectangle2D> shapes = new ArrayList<>();
    private Rectangle2D path;
    private Point2D current = new Point2D.Float();

    PdfPageScan(PDPage page, int pageIndex) {
        super(page);
        this.pageIndex = pageIndex;
        PDRectangle crop = page.getCropBox();
        this.pageWidth = crop.getWidth();
        this.pageHeight = crop.getHeight();
        this.left = crop.getLowerLeftX();
        this.top = crop.getUpperRightY();
    }

    /** A box in PDF space (origin bottom left) as one from the top left of the visible page. */
    private Rectangle2D fromTop(Rectangle2D b) {
        return new Rectangle2D.Double(b.getMinX() - left, top - b.getMaxY(), b.getWidth(), b.getHeight());
    }

    @Override
    public void drawImage(PDImage pdImage) {
        if (!(pdImage instanceof PDImageXObject x) || x.isStencil()) {
            return;
        }
        Matrix m = getGraphicsState().getCurrentTransformationMatrix();
        Rectangle2D box = null;
        for (float[] corner : new float[][] {{0, 0}, {1, 0}, {0, 1}, {1, 1}}) {
            Point2D.Float p = m.transformPoint(corner[0], corner[1]);
            if (box == null) {
                box = new Rectangle2D.Double(p.x, p.y, 0, 0);
            } else {
                box.add(p);
            }
        }
        Rectangle2D b = fromTop(box);
        boolean small = b.getWidth() < FigureExtractor.MIN_SIDE_PT || b.getHeight() < FigureExtractor.MIN_SIDE_PT || x.getWidth() < FigureExtractor.MIN_SIDE_PX
                || x.getHeight() < FigureExtractor.MIN_SIDE_PX;
        boolean scan = b.getWidth() * b.getHeight() > 0.8 * pageWidth * pageHeight;
        if (!small && !scan) {
            images.add(new Candidate(pageIndex, b, x, false));
        }
    }

    private void add(Point2D p) {
        if (path == null) {
            path = new Rectangle2D.Double(p.getX(), p.getY(), 0, 0);
        } else {
            path.add(p);
        }
    }

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
        add(p0);
        add(p1);
        add(p2);
        add(p3);
        current = p0;
    }

    @Override
    public void clip(int windingRule) {
        // a clipping path draws nothing
    }

    @Override
    public void moveTo(float x, float y) {
        current = new Point2D.Float(x, y);
        add(current);
    }

    @Override
    public void lineTo(float x, float y) {
        current = new Point2D.Float(x, y);
        add(current);
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
        add(new Point2D.Float(x1, y1));
        add(new Point2D.Float(x2, y2));
        current = new Point2D.Float(x3, y3);
        add(current);
    }

    @Override
    public Point2D getCurrentPoint() {
        return current;
    }

    @Override
    public void closePath() {
        // the box already holds the path's points
    }

    @Override
    public void endPath() {
        path = null;
    }

    @Override
    public void strokePath() {
        drawn(false);
    }

    @Override
    public void fillPath(int windingRule) {
        drawn(true);
    }

    @Override
    public void fillAndStrokePath(int windingRule) {
        drawn(false);
    }

    @Override
    public void shadingFill(COSName shadingName) {
        // a shading paints the clip region; not a shape of its own
    }

    private void drawn(boolean fill) {
        Rectangle2D p = path;
        path = null;
        if (p == null || shapes.size() > 20_000) {
            return;
        }
        if (fill) {
            try {
                // A white fill is a background, not part of a drawing.
                if (getGraphicsState().getNonStrokingColor().toRGB() == 0xFFFFFF) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // unknown colour: count it
            }
        }
        Rectangle2D b = fromTop(p);
        if (b.getWidth() * b.getHeight() > 0.6 * pageWidth * pageHeight) {
            return;
        }
        shapes.add(b);
    }

    /**
     * Regions of vector drawing: shapes close to one another (within 10 points) grouped, kept when there are at
     * least three and they cover at least 72 × 48 points.
     */
    List<Rectangle2D> regions() {
        List<Rectangle2D> groups = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (Rectangle2D s : shapes) {
            Rectangle2D into = null;
            int count = 1;
            for (int i = groups.size() - 1; i >= 0; i--) {
                if (FigureExtractor.near(groups.get(i), s, 10)) {
                    if (into == null) {
                        into = new Rectangle2D.Double();
                        into.setRect(groups.get(i));
                    } else {
                        into.add(groups.get(i));
                    }
                    count += counts.get(i);
                    groups.remove(i);
                    counts.remove(i);
                }
            }
            if (into == null) {
                into = new Rectangle2D.Double();
                into.setRect(s);
            } else {
                into.add(s);
            }
            groups.add(into);
            counts.add(count);
        }
        List<Rectangle2D> out = new ArrayList<>();
        // Merging can bring two groups within reach of each other: once more over the groups.
        for (int i = 0; i < groups.size(); i++) {
            for (int j = groups.size() - 1; j > i; j--) {
                if (FigureExtractor.near(groups.get(i), groups.get(j), 10)) {
                    groups.get(i).add(groups.get(j));
                    counts.set(i, counts.get(i) + counts.get(j));
                    groups.remove(j);
                    counts.remove(j);
                }
            }
        }
        for (int i = 0; i < groups.size(); i++) {
            Rectangle2D g = groups.get(i);
            if (counts.get(i) >= 3 && g.getWidth() >= 72 && g.getHeight() >= 48) {
                out.add(g);
            }
        }
        return out;
    }
}
