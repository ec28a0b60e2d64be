package dev.rebound.history;

import dev.rebound.json.WireJson;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.UserMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Searches the titles and messages of every chat in a sessions directory.
 *
 * <p>The first search (or {@link #refresh()}) reads every chat file once into an in-memory index: per chat its title
 * and the text of its prompts and replies, whitespace collapsed and folded ({@link SearchText}: case and accents
 * ignored), plus where each message's line starts in the file. Every later search first lists the directory and
 * re-reads only the files whose size or modification time changed, drops the files that are gone, then scans the
 * folded texts in memory. Only the hits returned read their files again, one line each, to cut the snippet from the
 * message's own text. Damaged lines are skipped, as the loader skips them; an unreadable file is left out.
 *
 * <p>What is searched: the title, user prompts and the answer text of replies (Markdown source). Not searched:
 * reasoning, notices, error messages and model names. A chat matches when each word of the query occurs in its title or
 * in its messages, anywhere in a word. Thread-safe: searches run one at a time.
 */
public final class ChatSearch {
    private static final Logger LOG = LoggerFactory.getLogger(ChatSearch.class);
    /** Characters of context shown before the first match of a snippet. */
    private static final int BEFORE = 30;
    /** The longest snippet, in characters, without its ellipses. */
    private static final int SNIPPET = 100;

    private final Path sessionsDir;
    private final JournalCodec codec;
    private final Map<String, IndexedChat> index = new HashMap<>();

    /** A search over the chats of {@code sessionsDir} (which need not exist yet). */
    public ChatSearch(Path sessionsDir) {
        this(sessionsDir, new JournalCodec(new WireJson()));
    }

    /** Like {@link #ChatSearch(Path)}, reading with {@code codec} (the app's one codec). */
    public ChatSearch(Path sessionsDir, JournalCodec codec) {
        this.sessionsDir = Objects.requireNonNull(sessionsDir, "sessionsDir").toAbsolutePath();
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** Whether the user's message or the model's reply held the snippet. */
    public enum Role {
        USER,
        ASSISTANT
    }

    /** A range {@code [start, end)} of characters to emphasise. */
    public record Span(int start, int end) {}

    /**
     * Text around the first match in a chat's messages.
     *
     * @param text the message's text around the match, whitespace collapsed, with {@code …} where it was cut
     * @param role whose message it is
     * @param marks where the query's words occur in {@code text}, in order, not overlapping
     */
    public record Snippet(String text, Role role, List<Span> marks) {
        public Snippet {
            marks = List.copyOf(marks);
        }
    }

    /**
     * A chat that matches.
     *
     * @param title its title, or null when it has none (see {@link #displayTitle()})
     * @param titleMarks where the query's words occur in {@link #displayTitle()}
     * @param snippet the first match in its messages, or null when only the title matched
     */
    public record Hit(
            String id,
            Path file,
            String title,
            long created,
            long lastActivity,
            long sizeBytes,
            List<Span> titleMarks,
            Snippet snippet) {
        public Hit {
            titleMarks = List.copyOf(titleMarks);
        }

        /** The title, or {@value SessionTitles#UNTITLED}. */
        public String displayTitle() {
            return title == null || title.isBlank() ? SessionTitles.UNTITLED : title;
        }

        /** The chat as the session list knows it, to open it. */
        public SessionSummary summary() {
            return new SessionSummary(id, file, title, created, lastActivity, sizeBytes, List.of());
        }
    }

    /**
     * What a search found.
     *
     * @param hits the first matching chats: those whose title holds every word first, then newest activity first
     * @param total how many chats match, {@code hits} included
     */
    public record Results(String query, List<Hit> hits, int total) {
        public Results {
            hits = List.copyOf(hits);
        }
    }

    /** How big the index is, for the benchmark and the log. */
    public record Size(int chats, int messages, long characters) {}

    /**
     * Finds the chats holding every word of {@code query}; a blank query finds nothing.
     *
     * @param limit the most hits returned (with their snippets); {@link Results#total()} counts all
     * @throws IOException when the sessions directory exists but cannot be listed
     */
    public synchronized Results search(String query, int limit) throws IOException {
        List<String> words = SearchText.words(query);
        if (words.isEmpty()) {
            return new Results(query, List.of(), 0);
        }
        refresh();
        List<Match> matches = new ArrayList<>();
        for (IndexedChat chat : index.values()) {
            Match match = chat.match(words);
            if (match != null) {
                matches.add(match);
            }
        }
        matches.sort(Comparator.comparing((Match m) -> !m.allInTitle)
                .thenComparing(Comparator.comparingLong((Match m) -> m.chat.lastActivity)
                        .reversed())
                .thenComparing(m -> m.chat.id));
        List<Hit> hits = new ArrayList<>(Math.min(limit, matches.size()));
        for (Match match : matches.subList(0, Math.min(limit, matches.size()))) {
            hits.add(hit(match, words));
        }
        return new Results(query, hits, matches.size());
    }

    /**
     * Brings the index up to date with the directory: reads new and changed files, forgets deleted ones. A search does
     * this itself; call it ahead (say, when the search field gets the focus) so the first search finds a warm index.
     *
     * @throws IOException when the sessions directory exists but cannot be listed
     */
    public synchronized void refresh() throws IOException {
        Set<String> seen = new HashSet<>();
        List<Changed> changed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sessionsDir, "*" + SessionFiles.EXTENSION)) {
            for (Path file : files) {
                Optional<String> id = SessionFiles.idOf(file);
                if (id.isEmpty()) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class);
                } catch (IOException e) {
                    continue;
                }
                if (!attributes.isRegularFile()) {
                    continue;
                }
                seen.add(id.get());
                IndexedChat known = index.get(id.get());
                long modified = attributes.lastModifiedTime().toMillis();
                if (known == null || known.sizeBytes != attributes.size() || known.modified != modified) {
                    changed.add(new Changed(id.get(), file, attributes.size(), modified));
                }
            }
        } catch (NoSuchFileException e) {
            index.clear();
            return;
        }
        index.keySet().retainAll(seen);
        // Files are read in parallel (the first search reads them all); the index is updated by this thread only.
        List<Optional<IndexedChat>> read = (changed.size() > 1 ? changed.parallelStream() : changed.stream())
                .map(this::read)
                .toList();
        for (int i = 0; i < changed.size(); i++) {
            String id = changed.get(i).id();
            read.get(i).ifPresentOrElse(chat -> index.put(id, chat), () -> index.remove(id));
        }
    }

    /** A file that is new or changed since it was indexed. */
    private record Changed(String id, Path file, long size, long modified) {}

    /** The size of the index now. */
    public synchronized Size size() {
        int messages = 0;
        long characters = 0;
        for (IndexedChat chat : index.values()) {
            messages += chat.starts.length;
            characters += chat.folded.length();
        }
        return new Size(index.size(), messages, characters);
    }

    /** A file read into its index entry; empty when it cannot be read (it is then left out of the search). */
    private Optional<IndexedChat> read(Changed changed) {
        Indexing indexing = new Indexing(changed.id(), changed.file(), changed.size(), changed.modified());
        try (InputStream in = Files.newInputStream(changed.file())) {
            LineScanner.scan(in, indexing::line);
            return Optional.of(indexing.result());
        } catch (IOException e) {
            LOG.debug("chat search: {} could not be read; it is left out ({})", changed.file(), e.toString());
            return Optional.empty();
        }
    }

    private Hit hit(Match match, List<String> words) {
        IndexedChat chat = match.chat;
        String shownTitle = chat.title == null || chat.title.isBlank() ? SessionTitles.UNTITLED : chat.title;
        List<Span> titleMarks = marks(SearchText.fold(shownTitle), words, 0, shownTitle.length(), 0);
        Snippet snippet = match.firstInMessages < 0 ? null : snippet(chat, match.firstInMessages, words);
        return new Hit(
                chat.id, chat.file, chat.title, chat.created, chat.lastActivity, chat.sizeBytes, titleMarks, snippet);
    }

    /** The snippet around {@code at} (an offset in the chat's folded messages), cut from the message's own text. */
    private Snippet snippet(IndexedChat chat, int at, List<String> words) {
        int message = Arrays.binarySearch(chat.starts, at);
        if (message < 0) {
            message = -message - 2;
        }
        int start = chat.starts[message];
        int end = chat.folded.indexOf('\n', start);
        String folded = chat.folded.substring(start, end);
        String text = original(chat, message, folded).orElse(folded);
        int from = Math.max(0, at - start - BEFORE);
        if (from > 0) {
            int space = text.indexOf(' ', from);
            from = space >= 0 && space < at - start ? space + 1 : from;
        }
        int to = Math.min(text.length(), from + SNIPPET);
        if (to < text.length()) {
            int space = text.lastIndexOf(' ', to);
            to = space > at - start ? space : to;
        }
        String prefix = from > 0 ? "…" : "";
        String cut = prefix + text.substring(from, to) + (to < text.length() ? "…" : "");
        List<Span> marks = marks(folded, words, from, to, prefix.length() - from);
        return new Snippet(cut, chat.roles[message], marks);
    }

    /**
     * The collapsed text of a message, read back from its line; empty when the file changed since it was indexed (the
     * folded text then stands in).
     */
    private Optional<String> original(IndexedChat chat, int message, String folded) {
        ByteBuffer line = ByteBuffer.allocate(chat.lengths[message]);
        try (FileChannel channel = FileChannel.open(chat.file, StandardOpenOption.READ)) {
            long position = chat.positions[message];
            while (line.hasRemaining() && channel.read(line, position + line.position()) > 0) {
                // Read until the line is whole or the file ends.
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        if (line.hasRemaining()) {
            return Optional.empty();
        }
        byte[] bytes = line.array();
        return messageText(tolerantDecode(bytes, 0, bytes.length))
                .map(SearchText::collapse)
                .filter(text -> SearchText.fold(text).equals(folded));
    }

    /** The marks of every word within {@code [from, to)} of the folded text, shifted by {@code shift}, merged. */
    private static List<Span> marks(String folded, List<String> words, int from, int to, int shift) {
        List<Span> found = new ArrayList<>();
        for (String word : words) {
            for (int i = folded.indexOf(word, from); i >= 0 && i < to; i = folded.indexOf(word, i + 1)) {
                found.add(new Span(i, Math.min(to, i + word.length())));
            }
        }
        found.sort(Comparator.comparingInt(Span::start));
        List<Span> merged = new ArrayList<>();
        for (Span span : found) {
            if (!merged.isEmpty() && span.start() <= merged.getLast().end()) {
                Span last = merged.removeLast();
                merged.add(new Span(last.start(), Math.max(last.end(), span.end())));
            } else {
                merged.add(span);
            }
        }
        return merged.stream()
                .map(s -> new Span(s.start() + shift, s.end() + shift))
                .toList();
    }

    /** A line decoded as the loader does: a line with bytes that are not UTF-8 is read with U+FFFD for them. */
    private JournalCodec.Line tolerantDecode(byte[] bytes, int offset, int length) {
        JournalCodec.Line decoded = codec.decode(bytes, offset, length);
        if (decoded instanceof JournalCodec.BadLine) {
            byte[] repaired =
                    new String(bytes, offset, length, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            JournalCodec.Line again = codec.decode(repaired, 0, repaired.length);
            if (again instanceof JournalCodec.EntryLine) {
                return again;
            }
        }
        return decoded;
    }

    /** The searchable text of a line: a prompt, or a reply's answer text; empty for anything else. */
    private static Optional<String> messageText(JournalCodec.Line line) {
        if (line instanceof JournalCodec.EntryLine e && e.entry() instanceof MessageEntry m) {
            return switch (m.message()) {
                case UserMessage user -> Optional.ofNullable(user.text());
                case AssistantMessage reply -> Optional.of(reply.text());
            };
        }
        return Optional.empty();
    }

    /** One chat's file read into the index. */
    private final class Indexing {
        private final String id;
        private final Path file;
        private final long size;
        private final long modified;
        private final Map<String, Indexed> messages = new java.util.LinkedHashMap<>();
        private final Map<String, Boolean> retried = new HashMap<>();
        /** The prompt a rewind replaces, until the new prompt that takes its place is read. */
        private String pendingRewind;

        private String title;
        private String headerTitle;
        private long created = -1;
        private long firstActivity = -1;
        private long lastActivity = -1;
        private boolean seenContent;

        Indexing(String id, Path file, long size, long modified) {
            this.id = id;
            this.file = file;
            this.size = size;
            this.modified = modified;
        }

        void line(long number, long position, byte[] bytes, int offset, int length, boolean terminated) {
            int start = offset;
            if (number == 1 && length >= 3 && bytes[offset] == (byte) 0xEF) {
                start = offset + 3;
            }
            if (isBlank(bytes, start, offset + length)) {
                return;
            }
            boolean first = !seenContent;
            seenContent = true;
            JournalCodec.Line line = tolerantDecode(bytes, start, offset + length - start);
            switch (line) {
                case JournalCodec.HeaderLine h
                when first -> {
                    headerTitle = h.header().title();
                    created = h.header().created();
                }
                case JournalCodec.EntryLine e -> entry(e.entry(), position + (start - offset), offset + length - start);
                default -> {
                    // A damaged line or a second header: skipped, as the loader skips it.
                }
            }
        }

        private void entry(JournalEntry entry, long position, int length) {
            if (firstActivity < 0) {
                firstActivity = entry.ts();
            }
            lastActivity = Math.max(lastActivity, entry.ts());
            switch (entry) {
                case TitleEntry t -> title = t.title();
                case RetriedMark mark -> retried.put(mark.messageId(), mark.retried());
                // Applied when its new prompt comes, as Branches does: a rewind with none after it changes nothing.
                case RewindEntry rewind -> pendingRewind = rewind.replaces();
                case MessageEntry m
                when !messages.containsKey(m.id()) -> {
                    if (pendingRewind != null && m.message() instanceof UserMessage) {
                        rewind(pendingRewind);
                        pendingRewind = null;
                    }
                    String text = switch (m.message()) {
                        case UserMessage user -> user.text();
                        case AssistantMessage reply -> reply.text();
                    };
                    if (text != null && !text.isBlank()) {
                        messages.put(
                                m.id(),
                                new Indexed(
                                        SearchText.collapseAndFold(text),
                                        position,
                                        length,
                                        m.message() instanceof UserMessage ? Role.USER : Role.ASSISTANT));
                    }
                }
                default -> {
                    // Notices, model changes, chain records: not searched.
                }
            }
        }

        /** A regenerate or an edit: the replaced prompt and what followed it are no longer the chat (see Branches). */
        private void rewind(String replaces) {
            if (!messages.containsKey(replaces)) {
                return;
            }
            boolean after = false;
            for (var it = messages.keySet().iterator(); it.hasNext(); ) {
                String messageId = it.next();
                after = after || messageId.equals(replaces);
                if (after) {
                    it.remove();
                }
            }
        }

        IndexedChat result() {
            // A retried attempt is not shown as such in the chat (its reply replaced it): its text is not searched.
            messages.keySet().removeIf(messageId -> retried.getOrDefault(messageId, false));
            StringBuilder folded = new StringBuilder();
            int count = messages.size();
            int[] starts = new int[count];
            long[] positions = new long[count];
            int[] lengths = new int[count];
            Role[] roles = new Role[count];
            int i = 0;
            for (Indexed message : messages.values()) {
                starts[i] = folded.length();
                folded.append(message.folded()).append('\n');
                positions[i] = message.position();
                lengths[i] = message.length();
                roles[i] = message.role();
                i++;
            }
            String shownTitle = title != null ? title : headerTitle;
            long made = created >= 0 ? created : Math.max(0, firstActivity);
            return new IndexedChat(
                    id,
                    file,
                    size,
                    modified,
                    shownTitle,
                    SearchText.collapseAndFold(shownTitle == null ? "" : shownTitle),
                    made,
                    Math.max(made, lastActivity),
                    folded.toString(),
                    starts,
                    positions,
                    lengths,
                    roles);
        }
    }

    /** A message while its file is read. */
    private record Indexed(String folded, long position, int length, Role role) {}

    private static boolean isBlank(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /**
     * One chat in the index: its folded title and messages (each ended by {@code \n}, which folded text never holds),
     * where each message starts in {@code folded}, and where its line is in the file.
     */
    private record IndexedChat(
            String id,
            Path file,
            long sizeBytes,
            long modified,
            String title,
            String foldedTitle,
            long created,
            long lastActivity,
            String folded,
            int[] starts,
            long[] positions,
            int[] lengths,
            Role[] roles) {

        /** The match of every word, or null. */
        Match match(List<String> words) {
            boolean allInTitle = true;
            int first = -1;
            for (String word : words) {
                boolean inTitle = foldedTitle.contains(word);
                int at = folded.indexOf(word);
                if (!inTitle && at < 0) {
                    return null;
                }
                allInTitle &= inTitle;
                if (at >= 0 && (first < 0 || at < first)) {
                    first = at;
                }
            }
            return new Match(this, allInTitle, first);
        }
    }

    /**
     * @param firstInMessages the offset in {@code folded} of the earliest word found in the messages, or -1
     */
    private record Match(IndexedChat chat, boolean allInTitle, int firstInMessages) {}
}
