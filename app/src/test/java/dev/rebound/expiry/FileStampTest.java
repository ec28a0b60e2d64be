package dev.rebound.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;

/** {@link ExpiryFile.FileStamp}'s written-out equality: what the stores compare to see the file changed. */
class FileStampTest {
    private static final FileTime T = FileTime.fromMillis(1_000);

    @Test
    void stampsOfTheSameVersionAreEqualWithEqualHashes() {
        ExpiryFile.FileStamp a = new ExpiryFile.FileStamp(T, 10, "inode-1");
        ExpiryFile.FileStamp b = new ExpiryFile.FileStamp(FileTime.fromMillis(1_000), 10, "inode-1");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(ExpiryFile.FileStamp.ABSENT).isEqualTo(new ExpiryFile.FileStamp(null, -1, null));
    }

    @Test
    void aChangedTimeSizeOrFileIsAnotherVersion() {
        ExpiryFile.FileStamp a = new ExpiryFile.FileStamp(T, 10, "inode-1");
        assertThat(a)
                .isNotEqualTo(new ExpiryFile.FileStamp(FileTime.fromMillis(2_000), 10, "inode-1"))
                .isNotEqualTo(new ExpiryFile.FileStamp(T, 11, "inode-1"))
                .isNotEqualTo(new ExpiryFile.FileStamp(T, 10, "inode-2"))
                .isNotEqualTo(new ExpiryFile.FileStamp(T, 10, null))
                .isNotEqualTo(null)
                .isNotEqualTo("stamp");
        assertThat(ExpiryFile.FileStamp.ABSENT).isNotEqualTo(ExpiryFile.FileStamp.UNKNOWN);
    }
}
