package dev.rebound.session;

import dev.rebound.provider.ChatProvider;
import dev.rebound.settings.ProviderApi;
import java.util.Optional;

/** Finds the implementation of a wire protocol. */
@FunctionalInterface
public interface ProviderDirectory {
    /** The provider implementation speaking that api, if this build has one. */
    Optional<ChatProvider> forApi(ProviderApi api);
}
