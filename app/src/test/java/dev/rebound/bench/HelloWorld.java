package dev.rebound.bench;

/** The baseline JVM of the start-up benchmarks: prints one line and exits. Started from its own jar. */
public final class HelloWorld {
    private HelloWorld() {}

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
