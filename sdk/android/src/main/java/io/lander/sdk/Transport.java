package io.lander.sdk;

import java.io.IOException;

/** One JSON POST; {@link HttpTransport} is the real one. */
public interface Transport {
    /** The status and body text; throws for a network failure or no answer within {@code timeoutMs}. */
    Response post(String url, String json, int timeoutMs) throws IOException;

    final class Response {
        public final int status;
        public final String body;

        public Response(int status, String body) {
            this.status = status;
            this.body = body;
        }
    }
}
