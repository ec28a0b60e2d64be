package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The text a reply row holds: shared with the session when restored, grown in place while streaming. */
class AssistantItemTest {

    @Test
    void aRestoredReplyHoldsTheSessionsOwnTextInsteadOfACopy() {
        String saved = new String("A finished reply from the session file.");
        AssistantItem item = AssistantItem.finished("m1", "p/m", saved, AssistantItem.Status.DONE, null);

        assertThat(item.text()).isSameAs(saved);
        assertThat(item.lengthProperty().get()).isEqualTo(saved.length());
    }

    @Test
    void aRestoredReplyThatGrowsAgainKeepsItsTextAndAppends() {
        AssistantItem item = AssistantItem.finished("m1", "p/m", "Hello", AssistantItem.Status.DONE, null);

        item.append(", world");

        assertThat(item.text().toString()).isEqualTo("Hello, world");
        assertThat(item.lengthProperty().get()).isEqualTo(12);
    }

    @Test
    void aRestartEmptiesTheRowForTheNextAttempt() {
        AssistantItem item = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        item.append("partial");

        item.restart("m2", "p/other");

        assertThat(item.text().toString()).isEmpty();
        assertThat(item.lengthProperty().get()).isZero();
        item.append("fresh");
        assertThat(item.text().toString()).isEqualTo("fresh");
    }
}
