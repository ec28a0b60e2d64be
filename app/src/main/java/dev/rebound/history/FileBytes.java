package dev.rebound.history;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Positional byte searches in an open file, a block at a time, so that a file's head and tail can be read without
 * reading what lies between. Not thread-safe; the file is only read.
 */
final class FileBytes {
    private static final int BLOCK = 64 * 1024;

    private final FileChannel channel;
    private final long size;
    private final ByteBuffer block = ByteBuffer.allocate(BLOCK);
    private final byte[] blockBytes = block.array();
    /** The file position of the block's first byte. */
    private long cachedStart;
    /** How many bytes of the file the block holds (0: none yet). */
    private int cachedLength;

    FileBytes(FileChannel channel) throws IOException {
        this.channel = channel;
        this.size = channel.size();
    }

    /** The file's size when it was opened; later appends are not seen. */
    long size() {
        return size;
    }

    /** The first position at or after {@code from} holding that byte, or -1. */
    long indexOf(byte value, long from) throws IOException {
        for (long position = from; position < size; position = cachedStart + cachedLength) {
            if (!cached(position)) {
                fill(position, (int) Math.min(BLOCK, size - position));
            }
            for (int i = (int) (position - cachedStart); i < cachedLength; i++) {
                if (blockBytes[i] == value) {
                    return cachedStart + i;
                }
            }
        }
        return -1;
    }

    /** The last position before {@code before} holding that byte, or -1. */
    long lastIndexOf(byte value, long before) throws IOException {
        for (long end = Math.min(before, size); end > 0; end = cachedStart) {
            if (!cached(end - 1)) {
                long start = Math.max(0, end - BLOCK);
                fill(start, (int) (end - start));
            }
            for (int i = (int) (end - cachedStart) - 1; i >= 0; i--) {
                if (blockBytes[i] == value) {
                    return cachedStart + i;
                }
            }
        }
        return -1;
    }

    /**
     * The last position before {@code before} where the pattern starts (the whole pattern lying before
     * {@code before}), or -1. Blocks overlap by the pattern's length, so a match across two blocks is found.
     */
    long lastIndexOf(byte[] pattern, long before) throws IOException {
        int overlap = pattern.length - 1;
        for (long end = Math.min(before, size); end >= pattern.length; end -= BLOCK - overlap) {
            long start = Math.max(0, end - BLOCK);
            int length = fill(start, (int) (end - start));
            for (int i = length - pattern.length; i >= 0; i--) {
                if (matchesAt(pattern, i)) {
                    return start + i;
                }
            }
            if (start == 0) {
                break;
            }
        }
        return -1;
    }

    /** The bytes from {@code start} (inclusive) to {@code end} (exclusive). */
    byte[] read(long start, long end) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(Math.max(0, end - start)));
        if (!bytes.hasRemaining()) {
            return bytes.array();
        }
        if (cached(start) && end <= cachedStart + cachedLength) {
            bytes.put(blockBytes, (int) (start - cachedStart), bytes.capacity());
        } else {
            readFully(bytes, start);
        }
        return bytes.array();
    }

    private boolean cached(long position) {
        return position >= cachedStart && position < cachedStart + cachedLength;
    }

    private boolean matchesAt(byte[] pattern, int at) {
        for (int j = 0; j < pattern.length; j++) {
            if (blockBytes[at + j] != pattern[j]) {
                return false;
            }
        }
        return true;
    }

    private int fill(long start, int length) throws IOException {
        cachedLength = 0;
        block.clear().limit(length);
        readFully(block, start);
        cachedStart = start;
        cachedLength = length;
        return length;
    }

    private void readFully(ByteBuffer buffer, long start) throws IOException {
        long position = start;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position);
            if (read < 0) {
                throw new EOFException("the file became shorter while it was read");
            }
            position += read;
        }
    }
}
