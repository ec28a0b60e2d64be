package dev.rebound.history;

import dev.rebound.files.FileProblem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what the session list needs from a file without parsing its messages: the header from the first line, the last
 * activity from the last valid line, and the title from the latest {@code title} entry, found by searching the file's
 * bytes backwards from the end for the {@code "type":"title"} the codec writes (so a file without title entries is
 * searched to its start, but nothing is parsed).
 */
final class SummaryReader {
    private static final byte[] TITLE_MARKER =
            ("\"type\":\"" + TitleEntry.TYPE + "\"").getBytes(StandardCharsets.US_ASCII);

    private final JournalCodec codec;

    SummaryReader(JournalCodec codec) {
        this.codec = codec;
    }

    /** The summary of a session file; never throws: an unreadable file is listed with a problem. */
    SessionSummary read(String id, Path file) {
        List<FileProblem> problems = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            FileBytes bytes = new FileBytes(channel);
            long firstEnd = endOfLine(bytes, 0);
            JournalCodec.Line first = decode(bytes, 0, firstEnd);
            SessionHeader header = first instanceof JournalCodec.HeaderLine h ? h.header() : null;
            if (header == null) {
                problems.add(problem(
                        file,
                        "line 1 is not a valid session header; the session id was taken from the " + "file name"));
            }
            long lastTs = lastEntryTs(bytes, file, problems);
            String title = latestTitle(bytes, firstEnd);
            long created = header != null
                    ? header.created()
                    : first instanceof JournalCodec.EntryLine e ? e.entry().ts() : lastModified(file);
            return new SessionSummary(
                    id,
                    file,
                    title != null ? title : header == null ? null : header.title(),
                    created,
                    lastTs >= 0 ? lastTs : created,
                    bytes.size(),
                    problems);
        } catch (IOException e) {
            problems.add(
                    problem(file, "the file could not be read (" + e.getClass().getSimpleName() + ")"));
            long modified = lastModified(file);
            return new SessionSummary(id, file, null, modified, modified, 0, problems);
        }
    }

    /** The ts of the last line that is an entry, or -1; reports a last line cut short. */
    private long lastEntryTs(FileBytes bytes, Path file, List<FileProblem> problems) throws IOException {
        long end = bytes.size();
        boolean terminated = end > 0 && bytes.lastIndexOf((byte) '\n', end) == end - 1;
        if (terminated) {
            end--;
        }
        boolean last = true;
        while (end > 0) {
            long start = bytes.lastIndexOf((byte) '\n', end) + 1;
            JournalCodec.Line line = decode(bytes, start, end);
            if (line instanceof JournalCodec.EntryLine e) {
                return e.entry().ts();
            }
            if (last && !terminated && line instanceof JournalCodec.BadLine) {
                problems.add(problem(
                        file,
                        "the last line is not a complete entry (the app may have stopped while " + "writing it)"));
            }
            last = false;
            end = start - 1;
        }
        return -1;
    }

    /** The title of the latest title entry after the header, or null. */
    private String latestTitle(FileBytes bytes, long headerEnd) throws IOException {
        long before = bytes.size();
        while (true) {
            long hit = bytes.lastIndexOf(TITLE_MARKER, before);
            if (hit <= headerEnd) {
                return null;
            }
            long start = bytes.lastIndexOf((byte) '\n', hit) + 1;
            if (decode(bytes, start, endOfLine(bytes, hit)) instanceof JournalCodec.EntryLine e
                    && e.entry() instanceof TitleEntry title) {
                return title.title();
            }
            before = start;
        }
    }

    private static long endOfLine(FileBytes bytes, long from) throws IOException {
        long newline = bytes.indexOf((byte) '\n', from);
        return newline < 0 ? bytes.size() : newline;
    }

    private JournalCodec.Line decode(FileBytes bytes, long start, long end) throws IOException {
        byte[] line = bytes.read(start, end);
        int offset = start == 0
                        && line.length >= 3
                        && line[0] == (byte) 0xEF
                        && line[1] == (byte) 0xBB
                        && line[2] == (byte) 0xBF
                ? 3
                : 0;
        int length = line.length - offset;
        if (length > 0 && line[line.length - 1] == '\r') {
            length--;
        }
        return codec.decode(line, offset, length);
    }

    private static long lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static FileProblem problem(Path file, String message) {
        return FileProblem.warning(file.toString(), message);
    }
}
