package io.lander.sdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.Charset;

/** {@link Transport} over {@link HttpURLConnection}: connecting and reading share one budget. */
public final class HttpTransport implements Transport {
    private static final Charset UTF8 = Charset.forName("UTF-8");

    @Override
    public Response post(String url, String json, int timeoutMs) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        try {
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setUseCaches(false);
            connection.setConnectTimeout(Math.max(1, timeoutMs));
            connection.setRequestProperty("content-type", "application/json");
            byte[] body = json.getBytes(UTF8);
            connection.setFixedLengthStreamingMode(body.length);
            OutputStream out = connection.getOutputStream();
            try {
                out.write(body);
            } finally {
                out.close();
            }
            int left = (int) (deadline - System.currentTimeMillis());
            if (left <= 0) throw new SocketTimeoutException("no answer in " + timeoutMs + " ms");
            connection.setReadTimeout(left);
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            return new Response(status, in == null ? "" : readAll(in));
        } finally {
            connection.disconnect();
        }
    }

    private static String readAll(InputStream in) throws IOException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
            return new String(out.toByteArray(), UTF8);
        } finally {
            in.close();
        }
    }
}
