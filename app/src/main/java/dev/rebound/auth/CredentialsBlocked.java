package dev.rebound.auth;

/**
 * Every API key of a provider is blocked after usage limits.
 *
 * @param provider the provider key
 * @param soonestLabel the label of the key that is free again first
 * @param untilEpochMs when that key is free again
 * @param billingOnly true when every key is blocked for billing or credit exhaustion (waiting cannot help)
 * @param detail each key with its block, for people (labels only)
 */
public record CredentialsBlocked(
        String provider, String soonestLabel, long untilEpochMs, boolean billingOnly, String detail) {}
