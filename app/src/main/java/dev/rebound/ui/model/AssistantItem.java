package dev.rebound.ui.model;

import dev.rebound.transcript.Usage;
import java.util.Arrays;
import java.util.Objects;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * A reply of the assistant as the chat shows it. The text grows as deltas arrive: views read {@link #text()} when
 * {@link #lengthProperty()} changes, so a streaming reply is never copied whole per token. A failed attempt that is
 * being retried keeps its row; the next attempt streams into the same row. Confined to the FX thread.
 */
public final class AssistantItem implements ChatItem {

    /** Where the reply stands. */
    public enum Status {
        /** Text is arriving. */
        STREAMING,
        /** The attempt failed and a retry is scheduled or running; see the retry banner. */
        RETRYING,
        /** The reply is complete. */
        DONE,
        /** The user pressed Stop; the text received so far is kept. */
        STOPPED,
        /** The call (or its retry chain) failed; {@link #errorProperty()} says why. */
        FAILED,
        /** The user cancelled the pending retry. */
        CANCELLED
    }

    /**
     * The text while it grows; null while the row holds a finished text. A restored reply keeps the session's own
     * {@code String} in {@link #settled} instead of a copy, which halves the text held by a long reopened chat.
     */
    private StringBuilder growing;

    private String settled = "";
    private final ReadOnlyIntegerWrapper length = new ReadOnlyIntegerWrapper(this, "length");
    private final ReadOnlyObjectWrapper<Status> status = new ReadOnlyObjectWrapper<>(this, "status");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error");
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper(this, "detail");
    private final ReadOnlyStringWrapper model = new ReadOnlyStringWrapper(this, "model", "");
    private String messageId;
    /** The start of the only part of a reply that is one part (shared: an array is only written past its count). */
    private static final int[] ONE_PART = {0};
    /** Made when text first arrives, so a restored chat's thousands of rows do not each hold one. */
    private ReplySegmenter segmenter;
    /** Where each part of the reply starts (the first at 0); see {@link ReplySegmenter}. */
    private int[] partStarts = ONE_PART;
    /** The reasoning the model streamed before (or beside) its answer; null while there is none. */
    private StringBuilder thinking;

    private final ReadOnlyIntegerWrapper thinkingLength = new ReadOnlyIntegerWrapper(this, "thinkingLength");
    private final ReadOnlyObjectWrapper<RetryRecord> retryRecord = new ReadOnlyObjectWrapper<>(this, "retryRecord");
    private final BooleanProperty recordOpen = new SimpleBooleanProperty(this, "recordOpen");
    private final ReadOnlyObjectWrapper<Usage> usage = new ReadOnlyObjectWrapper<>(this, "usage", Usage.NONE);
    private final ReadOnlyIntegerWrapper partCount = new ReadOnlyIntegerWrapper(this, "partCount", 1);

    AssistantItem(String messageId, String model, Status status) {
        this.messageId = messageId;
        this.model.set(model == null ? "" : model);
        this.status.set(status);
    }

    /** A finished reply, as restored from a saved chat. */
    static AssistantItem finished(String messageId, String model, String text, Status status, String error) {
        return finished(messageId, model, text, null, status, error);
    }

    /** A finished reply with the model's reasoning (null or empty for none), as restored from a saved chat. */
    static AssistantItem finished(
            String messageId, String model, String text, String thinking, Status status, String error) {
        AssistantItem item = new AssistantItem(messageId, model, status);
        item.appendThinking(thinking);
        item.settle(text);
        item.error.set(error);
        return item;
    }

    /** The text received so far; do not keep it: it changes as the reply streams. */
    public CharSequence text() {
        return growing != null ? growing : settled;
    }

    /** The model's reasoning so far (empty when it streamed none); do not keep it: it grows. */
    public CharSequence thinking() {
        return thinking == null ? "" : thinking;
    }

    /** The number of reasoning characters received; changes with every reasoning delta. */
    public ReadOnlyIntegerProperty thinkingLengthProperty() {
        return thinkingLength.getReadOnlyProperty();
    }

    /** The number of characters received; changes with every delta. */
    public ReadOnlyIntegerProperty lengthProperty() {
        return length.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Status> statusProperty() {
        return status.getReadOnlyProperty();
    }

    public Status status() {
        return status.get();
    }

    /** What went wrong, for people (e.g. {@code Retry failed after 3 attempts: …}), or null. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The error of the last failed attempt when {@link #errorProperty()} says something else (a cancel), or null. */
    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** The model that wrote (or failed to write) the reply, {@code provider/id}. */
    public ReadOnlyStringProperty modelProperty() {
        return model.getReadOnlyProperty();
    }

    /**
     * How many parts the reply is shown in (at least 1). A long reply is cut into parts at block boundaries so each
     * can be a row of its own; parts are only ever added while it streams, and a restart goes back to one.
     */
    public ReadOnlyIntegerProperty partCountProperty() {
        return partCount.getReadOnlyProperty();
    }

    public int partCount() {
        return partCount.get();
    }

    /** Where part {@code index} starts in {@link #text()}. */
    public int partStart(int index) {
        return partStarts[index];
    }

    /** Where part {@code index} ends: the next part's start, or the end of the text received so far for the last. */
    public int partEnd(int index) {
        return index + 1 < partCount.get() ? partStarts[index + 1] : text().length();
    }

    /**
     * A live view of one part's text: the last part grows with the reply. It reads as empty once a restart dropped
     * the part. Like {@link #text()}, it is not to be kept as a value.
     */
    public CharSequence part(int index) {
        return new PartText(index);
    }

    /**
     * What the reply went through when it needed retries, a key switch or a fallback; null for a reply its first call
     * answered (and while its chain still runs).
     */
    public ReadOnlyObjectProperty<RetryRecord> retryRecordProperty() {
        return retryRecord.getReadOnlyProperty();
    }

    /** Whether the retry record's timeline is unfolded; kept here so it survives the list reusing the row's cell. */
    public BooleanProperty recordOpenProperty() {
        return recordOpen;
    }

    /** The tokens the provider reported for the call that wrote the reply ({@link Usage#NONE} when it said nothing). */
    public ReadOnlyObjectProperty<Usage> usageProperty() {
        return usage.getReadOnlyProperty();
    }

    /** Whether a manual Retry is offered. */
    public boolean canRetry() {
        return status.get() == Status.FAILED || status.get() == Status.CANCELLED;
    }

    String messageId() {
        return messageId;
    }

    void append(String delta) {
        if (delta != null && !delta.isEmpty()) {
            if (growing == null) {
                growing = new StringBuilder(settled);
                settled = "";
            }
            growing.append(delta);
            findParts();
            length.set(growing.length());
        }
    }

    /**
     * Sets the whole text of a reply that has none yet (a reopened chat's, or one that arrived without streaming),
     * keeping the given string rather than a copy.
     */
    void settle(String text) {
        if (growing != null || !settled.isEmpty() || text == null || text.isEmpty()) {
            append(text);
            return;
        }
        settled = text;
        findParts();
        segmenter = null;
        length.set(settled.length());
    }

    void record(RetryRecord record) {
        retryRecord.set(record);
    }

    void usage(Usage reported) {
        usage.set(reported == null ? Usage.NONE : reported);
    }

    void appendThinking(String delta) {
        if (delta != null && !delta.isEmpty()) {
            if (thinking == null) {
                thinking = new StringBuilder();
            }
            thinking.append(delta);
            thinkingLength.set(thinking.length());
        }
    }

    /** A new attempt of a retried reply begins in this row. */
    void restart(String newMessageId, String newModel) {
        messageId = newMessageId;
        growing = null;
        settled = "";
        segmenter = null;
        partStarts = ONE_PART;
        partCount.set(1);
        thinking = null;
        thinkingLength.set(0);
        length.set(0);
        error.set(null);
        detail.set(null);
        usage.set(Usage.NONE);
        if (newModel != null) {
            model.set(newModel);
        }
        status.set(Status.STREAMING);
    }

    private void findParts() {
        CharSequence text = text();
        if (segmenter == null) {
            segmenter = new ReplySegmenter();
        }
        for (int cut = segmenter.next(text); cut >= 0; cut = segmenter.next(text)) {
            int count = partCount.get();
            if (cut <= partStarts[count - 1]) {
                continue; // a new segmenter on a restored reply finds its known cuts again
            }
            if (count == partStarts.length) {
                partStarts = Arrays.copyOf(partStarts, count * 2);
            }
            partStarts[count] = cut;
            partCount.set(count + 1);
        }
    }

    /** The characters of one part, read through to the reply's current text. */
    private final class PartText implements CharSequence {
        private final int index;

        PartText(int index) {
            this.index = index;
        }

        @Override
        public int length() {
            return index < partCount.get() ? partEnd(index) - partStarts[index] : 0;
        }

        @Override
        public char charAt(int i) {
            Objects.checkIndex(i, length());
            return text().charAt(partStarts[index] + i);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            Objects.checkFromToIndex(start, end, length());
            if (start == end) {
                return "";
            }
            int from = partStarts[index];
            return text().subSequence(from + start, from + end);
        }

        @Override
        public String toString() {
            return subSequence(0, length()).toString();
        }
    }

    void end(Status newStatus, String errorText) {
        String previous = error.get();
        detail.set(previous != null && !previous.equals(errorText) ? previous : null);
        error.set(errorText);
        status.set(newStatus);
    }
}
