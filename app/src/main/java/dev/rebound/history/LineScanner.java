package dev.rebound.history;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream into {@code \n}-terminated lines without decoding them, holding one block and one line at a time.
 * A trailing {@code \r} is dropped (a file edited on Windows).
 */
final class LineScanner {
    private static final int BLOCK = 64 * 1024;

    /** Receives each line; the bytes are only valid during the call. */
    @FunctionalInterface
    interface Sink {
        /**
         * @param number 1-based line number
         * @param terminated whether a {@code \n} ended the line (false only for a last line cut short)
         */
        void line(long number, byte[] bytes, int offset, int length, boolean terminated);
    }

    /** Receives each line with the position of its first byte in the stream; the bytes are only valid during the call. */
    @FunctionalInterface
    interface PositionedSink {
        /**
         * @param number 1-based line number
         * @param position the offset of the line's first byte from the start of the stream
         * @param terminated whether a {@code \n} ended the line (false only for a last line cut short)
         */
        void line(long number, long position, byte[] bytes, int offset, int length, boolean terminated);
    }

    private LineScanner() {}

    /** Reads the stream to its end, passing every line (empty ones included) to the sink. */
    static void scan(InputStream in, Sink sink) throws IOException {
        scan(
                in,
                (number, position, bytes, offset, length, terminated) ->
                        sink.line(number, bytes, offset, length, terminated));
    }

    /** Reads the stream to its end, passing every line (empty ones included) and where it starts to the sink. */
    static void scan(InputStream in, PositionedSink sink) throws IOException {
        byte[] block = new byte[BLOCK];
        byte[] carry = new byte[1024];
        int carried = 0;
        long number = 1;
        long blockStart = 0;
        long lineStart = 0;
        int read;
        while ((read = in.read(block)) >= 0) {
            int start = 0;
            for (int i = 0; i < read; i++) {
                if (block[i] != '\n') {
                    continue;
                }
                if (carried == 0) {
                    emit(sink, number, lineStart, block, start, i - start, true);
                } else {
                    carry = append(carry, carried, block, start, i - start);
                    emit(sink, number, lineStart, carry, 0, carried + i - start, true);
                    carried = 0;
                }
                number++;
                start = i + 1;
                lineStart = blockStart + start;
            }
            carry = append(carry, carried, block, start, read - start);
            carried += read - start;
            blockStart += read;
        }
        if (carried > 0) {
            emit(sink, number, lineStart, carry, 0, carried, false);
        }
    }

    private static void emit(
            PositionedSink sink, long number, long position, byte[] bytes, int offset, int length, boolean terminated) {
        int end = length > 0 && bytes[offset + length - 1] == '\r' ? length - 1 : length;
        sink.line(number, position, bytes, offset, end, terminated);
    }

    private static byte[] append(byte[] carry, int carried, byte[] bytes, int offset, int length) {
        byte[] target = carried + length <= carry.length
                ? carry
                : Arrays.copyOf(carry, Math.max(carried + length, carry.length * 2));
        System.arraycopy(bytes, offset, target, carried, length);
        return target;
    }
}
