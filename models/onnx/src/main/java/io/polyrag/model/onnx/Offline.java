package io.polyrag.model.onnx;

/**
 * Keeps the tokenizer library (DJL) off the network. On its first use DJL sends usage telemetry to an AWS endpoint
 * and asks the EC2 metadata address (169.254.169.254) who runs it, unless told it is offline: a call polyrag must
 * never make (no network at run time), and a wait at start-up where those addresses do not answer. Set before any
 * DJL class reads them; a value the user set is kept.
 */
final class Offline {
    private Offline() {
    }

    static void ensure() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        if (System.getProperty("OPT_OUT_TRACKING") == null) {
            System.setProperty("OPT_OUT_TRACKING", "true");
        }
    }
}
