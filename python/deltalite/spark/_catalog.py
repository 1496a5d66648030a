"""spark.catalog: the calls that ask what schemas, tables and views exist."""

from collections import namedtuple

from . import _sql

Table = namedtuple("Table", "name catalog namespace description tableType isTemporary")
Database = namedtuple("Database", "name catalog description locationUri")


class Catalog:
    def __init__(self, session):
        self._session = session

    def currentDatabase(self):
        return self._session._run("SELECT current_database() AS d").column(0)[0].as_py()

    def currentCatalog(self):
        return "spark_catalog"

    def setCurrentDatabase(self, dbName):
        self._session._run(f"USE {_sql.quote_ident(dbName)}")

    def listDatabases(self, pattern=None):
        like = "" if pattern is None else f" LIKE {_sql.string_literal(pattern)}"
        names = self._session._run(f"SHOW SCHEMAS{like}").column(0).to_pylist()
        return [Database(n, "spark_catalog", None, None) for n in names]

    def listTables(self, dbName=None, pattern=None):
        """The Delta tables of a schema (the current one by default), then the temporary views."""
        where = "" if dbName is None else f" IN {_sql.quote_ident(dbName)}"
        like = "" if pattern is None else f" LIKE {_sql.string_literal(pattern)}"
        rows = self._session._run(f"SHOW TABLES{where}{like}").to_pylist()
        from .session import DATA_PREFIX

        stored_views = {r["viewName"] for r in self._session._run(f"SHOW VIEWS{where}").to_pylist()
                        if r["isTemporary"] in ("false", False)}
        tables = [Table(r["tableName"], "spark_catalog", [r["namespace"]], None,
                        "VIEW" if r["tableName"] in stored_views else "MANAGED", False) for r in rows
                  if r["isTemporary"] in ("false", False)]
        tables = [t for t in tables if not t.name.startswith(DATA_PREFIX)]
        views = self._session._view_names()
        if pattern is not None:
            import fnmatch

            views = [v for v in views if any(fnmatch.fnmatch(v, p.strip()) for p in pattern.split("|"))]
        return tables + [Table(v, None, [], None, "TEMPORARY", True) for v in views]

    def tableExists(self, tableName, dbName=None):
        name = f"{dbName}.{tableName}" if dbName else tableName
        if self._session._view_sql(name) is not None:
            return True
        return self._session._detail(_sql.quote_name(name)) is not None

    def databaseExists(self, dbName):
        return any(d.name == dbName for d in self.listDatabases())

    def dropTempView(self, viewName):
        return self._session._drop_view(viewName)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"Catalog.{name} is not in deltalite.spark's subset (docs/pyspark.md lists it)")
