import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Arc2D;
import java.awt.geom.Area;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Draws Rebound's application icon: a white chat bubble holding a circular "retry" arrow, on a rounded indigo-to-sky
 * tile. Run at package time (java RenderIcon.java OUT.png [SIZE]) so that no binary image lives in the repository and
 * any size can be made from the one drawing, which is laid out on a 256 × 256 grid.
 */
public final class RenderIcon {
    private static final Color TOP = new Color(0x4338CA);
    private static final Color BOTTOM = new Color(0x0EA5E9);

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: java RenderIcon.java OUT.png [SIZE]");
            System.exit(2);
        }
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        Path out = Path.of(args[0]);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        ImageIO.write(render(size), "png", out.toFile());
    }

    static BufferedImage render(int size) {
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.scale(size / 256.0, size / 256.0);

        // The tile, with a faint lighter band at the top for depth.
        RoundRectangle2D tile = new RoundRectangle2D.Double(8, 8, 240, 240, 68, 68);
        g.setPaint(new GradientPaint(0, 8, TOP, 0, 248, BOTTOM));
        g.fill(tile);
        Area sheen = new Area(tile);
        sheen.intersect(new Area(new java.awt.Rectangle(0, 0, 256, 100)));
        g.setPaint(new GradientPaint(0, 8, new Color(255, 255, 255, 46), 0, 100, new Color(255, 255, 255, 0)));
        g.fill(sheen);

        // The chat bubble: a rounded body and a tail at its lower left, with a soft shadow under it.
        Area bubble = new Area(new RoundRectangle2D.Double(40, 50, 176, 132, 56, 56));
        Path2D tail = new Path2D.Double();
        tail.moveTo(70, 160);
        tail.lineTo(58, 214);
        tail.lineTo(116, 176);
        tail.closePath();
        bubble.add(new Area(tail));
        Area shadow = bubble.createTransformedArea(java.awt.geom.AffineTransform.getTranslateInstance(0, 6));
        g.setColor(new Color(15, 23, 42, 60));
        g.fill(shadow);
        g.setColor(Color.WHITE);
        g.fill(bubble);

        // The retry arrow: three quarters of a circle, going round counter-clockwise, ending in an arrowhead.
        double cx = 128;
        double cy = 116;
        double r = 36;
        double start = 70;
        double extent = 285;
        g.setPaint(new GradientPaint(0, (float) (cy - r), TOP, 0, (float) (cy + r), BOTTOM));
        g.setStroke(new BasicStroke(15, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Arc2D.Double(cx - r, cy - r, 2 * r, 2 * r, start, extent, Arc2D.OPEN));
        double end = Math.toRadians(start + extent);
        double ex = cx + r * Math.cos(end);
        double ey = cy - r * Math.sin(end);
        // Unit vectors in screen coordinates: along the way round (counter-clockwise) and outward from the centre.
        double tx = -Math.sin(end);
        double ty = -Math.cos(end);
        double nx = Math.cos(end);
        double ny = -Math.sin(end);
        Path2D head = new Path2D.Double();
        head.moveTo(ex + tx * 22, ey + ty * 22);
        head.lineTo(ex + nx * 20 - tx * 4, ey + ny * 20 - ty * 4);
        head.lineTo(ex - nx * 20 - tx * 4, ey - ny * 20 - ty * 4);
        head.closePath();
        g.setStroke(new BasicStroke(4, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.fill(head);
        g.draw(head);
        g.dispose();
        return image;
    }
}
