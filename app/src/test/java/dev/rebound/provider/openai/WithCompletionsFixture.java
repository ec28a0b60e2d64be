package dev.rebound.provider.openai;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test class with a fresh {@link CompletionsFixture} (loopback server and provider) per test. */
abstract class WithCompletionsFixture {
    CompletionsFixture fixture;

    @BeforeEach
    void startFixture() throws Exception {
        fixture = new CompletionsFixture();
    }

    @AfterEach
    void stopFixture() {
        fixture.close();
    }
}
