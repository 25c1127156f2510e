// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.database;

import java.io.Closeable;

public interface Cursor extends Closeable {
    boolean moveToFirst();

    int getColumnIndex(String columnName);

    int getColumnCount();

    String getString(int columnIndex);

    long getLong(int columnIndex);

    int getInt(int columnIndex);

    boolean isNull(int columnIndex);

    @Override
    void close();
}
