package io.polyrag.parsers;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/** A decoded image ready to store, and the decoding shared by every format. */
record FigureImage(byte[] bytes, String mediaType, int width, int height) {

    static int subsampling(long pixels) {
        return pixels <= FigureExtractor.KEEP_PIXELS ? 1 : (int) Math.ceil(Math.sqrt((double) pixels / FigureExtractor.KEEP_PIXELS));
    }

    static FigureImage png(BufferedImage image) throws IOException {
        BufferedImage rgb = image;
        if (image.getType() != BufferedImage.TYPE_INT_RGB && image.getType() != BufferedImage.TYPE_INT_ARGB
                && image.getType() != BufferedImage.TYPE_3BYTE_BGR && image.getType() != BufferedImage.TYPE_BYTE_GRAY) {
            rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            var g = rgb.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, rgb.getWidth(), rgb.getHeight());
            g.drawImage(image, 0, 0, null);
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (!ImageIO.write(rgb, "png", out)) {
            throw new IOException("no PNG writer");
        }
        return new FigureImage(out.toByteArray(), "image/png", rgb.getWidth(), rgb.getHeight());
    }

    /** A picture's bytes as decoded and re-encoded for a browser, or null when it is left out. */
    static FigureImage picture(byte[] data, FigureRun run) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(data))) {
            if (in == null) {
                run.unreadable++;
                return null;
            }
            var readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                run.unreadable++;
                return null;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                int w = reader.getWidth(0);
                int h = reader.getHeight(0);
                long pixels = (long) w * h;
                if (pixels > FigureExtractor.MAX_PIXELS) {
                    run.tooLarge++;
                    return null;
                }
                if (w < FigureExtractor.MIN_SIDE_PX || h < FigureExtractor.MIN_SIDE_PX) {
                    return null;
                }
                String format = reader.getFormatName().toLowerCase(Locale.ROOT);
                int sub = subsampling(pixels);
                ImageReadParam param = reader.getDefaultReadParam();
                param.setSourceSubsampling(sub, sub, 0, 0);
                BufferedImage image = reader.read(0, param);
                if (sub == 1 && (format.equals("png") || format.equals("jpeg") || format.equals("gif"))) {
                    return new FigureImage(data, "image/" + format, w, h);
                }
                return png(image);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            run.unreadable++;
            return null;
        }
    }
}
