package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.history.JournalEntry;
import dev.rebound.history.JournalWriter;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.TitleEntry;
import dev.rebound.transcript.UserMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JournalHistorySinkTest {

    /** A writer whose disk is full until told otherwise. */
    private static final class FlakyWriter implements JournalWriter {
        final List<JournalEntry> written = new ArrayList<>();
        boolean full;

        @Override
        public void append(JournalEntry entry) throws IOException {
            if (full) {
                throw new IOException("No space left on device");
            }
            written.add(entry);
        }

        @Override
        public Path file() {
            return Path.of("sessions/s.jsonl");
        }

        @Override
        public void close() {}
    }

    private static JournalEntry message(String id) {
        return MessageEntry.of(new UserMessage(id, "text " + id, 1));
    }

    @Test
    void entriesThatCouldNotBeSavedAreWrittenInOrderOnceSavingWorksAgain() {
        FlakyWriter writer = new FlakyWriter();
        List<String> told = new ArrayList<>();
        JournalHistorySink sink = new JournalHistorySink(writer, told::add);

        sink.appended(message("m1"));
        writer.full = true;
        sink.appended(message("m2"));
        sink.appended(message("m3"));
        assertThat(sink.unsavedCount()).isEqualTo(2);
        assertThat(told).singleElement().asString().contains("cannot save").contains("No space left");

        writer.full = false;
        sink.appended(message("m4"));
        assertThat(writer.written)
                .extracting(e -> ((MessageEntry) e).message().id())
                .containsExactly("m1", "m2", "m3", "m4");
        assertThat(sink.unsavedCount()).isZero();
        assertThat(told).hasSize(2).last().asString().contains("works again");

        writer.full = true;
        sink.appended(new RetriedMark("e1", 2, "m4", true));
        assertThat(told).as("a new failure episode is reported again").hasSize(3);
    }

    @Test
    void writesAfterCloseAreIgnoredQuietly() {
        FlakyWriter writer = new FlakyWriter();
        List<String> told = new ArrayList<>();
        JournalHistorySink sink = new JournalHistorySink(writer, told::add);
        sink.close();
        sink.appended(new TitleEntry("e1", 1, "late title"));
        assertThat(writer.written).isEmpty();
        assertThat(told).isEmpty();
    }
}
