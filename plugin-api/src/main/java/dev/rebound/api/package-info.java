/**
 * The public vocabulary of Rebound shared by the session core, the RPC mode, the desktop UI and plugins: chat messages
 * and session events as immutable records of sealed hierarchies. The names and fields match the JSON that RPC mode
 * writes; enums render as their {@code toString()} wire names. This package depends on the JDK only.
 */
package dev.rebound.api;
