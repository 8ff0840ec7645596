"""The database: the storage contract, the SQL and its migrations, SQLite and PostgreSQL."""
