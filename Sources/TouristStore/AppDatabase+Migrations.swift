import GRDB
import PlainText

extension AppDatabase {
    /// The migrations that build the schema; append new ones, never edit a shipped one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        #if DEBUG
        // Users' databases are never erased, so development must exercise real migrations too.
        migrator.eraseDatabaseOnSchemaChange = false
        #endif

        migrator.registerMigration("v1") { db in
            try db.create(table: "pin") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("created_at", .double).notNull()
            }

            try db.create(table: "photo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("pin_id", .integer).notNull().references("pin", onDelete: .cascade)
                t.column("flickr_id", .text).notNull()
                t.column("remote_url", .text).notNull()
                t.column("file_path", .text)
                t.column("owner_id", .text)
                t.column("owner_name", .text)
                t.column("title", .text)
                t.column("position", .integer).notNull()
                t.column("created_at", .double).notNull()
                t.uniqueKey(["pin_id", "flickr_id"])
            }
            // Leads with pin_id, so it serves the cascade from pin and the album query in order.
            try db.create(index: "photo_on_pin_id_position", on: "photo", columns: ["pin_id", "position"])

            try db.create(table: "viewport") { t in
                t.primaryKey("id", .integer).check { $0 == Viewport.rowID }
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("zoom", .integer).notNull()
            }

            try db.create(table: "window_state") { t in
                t.primaryKey("id", .integer).check { $0 == WindowState.rowID }
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("is_maximized", .boolean).notNull()
            }

            // Files to unlink once the transaction that released them has committed.
            try db.create(table: "pending_file_deletion", options: .withoutRowID) { t in
                t.primaryKey("path", .text)
            }

            // Triggers also fire for rows removed by ON DELETE CASCADE, and roll back with their transaction.
            try db.execute(sql: """
                CREATE TRIGGER photo_after_delete_release_file
                AFTER DELETE ON photo
                WHEN OLD.file_path IS NOT NULL
                BEGIN
                    INSERT OR IGNORE INTO pending_file_deletion(path) VALUES (OLD.file_path);
                END;

                CREATE TRIGGER photo_after_update_of_file_path_release_old_file
                AFTER UPDATE OF file_path ON photo
                WHEN OLD.file_path IS NOT NULL AND OLD.file_path IS NOT NEW.file_path
                BEGIN
                    INSERT OR IGNORE INTO pending_file_deletion(path) VALUES (OLD.file_path);
                END;
                """)
        }

        migrator.registerMigration("v2-undoable-deletions") { db in
            // A released file with a hold waits for its undo window to close before it is unlinked.
            try db.alter(table: "pending_file_deletion") { t in
                t.add(column: "held_by", .text)
            }
        }

        migrator.registerMigration("v3-albums") { db in
            try db.create(table: "album") { t in
                t.primaryKey("pin_id", .integer).references("pin", onDelete: .cascade)
                t.column("page", .integer).notNull()
                t.column("pages", .integer).notNull()
                t.column("total", .integer).notNull()
                t.column("per_page", .integer).notNull()
                t.column("fetched_at", .double).notNull()
            }
            // Flickr photos an album has shown (or the user deleted): New Collection prefers others.
            try db.create(table: "seen_photo", options: .withoutRowID) { t in
                t.column("pin_id", .integer).notNull().references("pin", onDelete: .cascade)
                t.column("flickr_id", .text).notNull()
                t.primaryKey(["pin_id", "flickr_id"])
            }
        }

        migrator.registerMigration("v4-place-names") { db in
            // A pin's human name: offline from the nearest city at once, refined online later (once).
            try db.alter(table: "pin") { t in
                t.add(column: "place_name", .text)
                t.add(column: "place_name_source", .text)
                    .check { [PlaceNameSource.offline.rawValue, PlaceNameSource.online.rawValue].contains($0) }
            }
        }

        migrator.registerMigration("v5-photo-viewer") { db in
            // The photo viewer's bigger size (fetched on demand) and the photo's license.
            try db.alter(table: "photo") { t in
                t.add(column: "large_url", .text)
                t.add(column: "license", .text)
            }
        }

        migrator.registerMigration("v6-album-time") { db in
            // The time an album shows ("2010s"); NULL, as in older databases, is any time.
            try db.alter(table: "album") { t in
                t.add(column: "taken_from_year", .integer)
                t.add(column: "taken_to_year", .integer)
            }
        }

        migrator.registerMigration("v7-hidden-own-photos") { db in
            // The user's own photos they removed from an album: only the album's view of them; the files stay.
            try db.create(table: "hidden_own_photo") { t in
                t.column("pin_id", .integer).notNull().references("pin", onDelete: .cascade)
                t.column("path", .text).notNull()
                t.primaryKey(["pin_id", "path"])
            }
        }

        migrator.registerMigration("v8-plain-place-names") { db in
            // Names stored before they were made plain: a right-to-left override in one reversed what follows it.
            for row in try Row.fetchAll(db, sql: "SELECT id, place_name FROM pin WHERE place_name IS NOT NULL") {
                let name: String = row["place_name"]
                let plain = PlainText.nonEmptyName(name)
                guard plain != name else { continue }
                try db.execute(sql: "UPDATE pin SET place_name = ? WHERE id = ?", arguments: [plain, row["id"] as Int64])
            }
        }

        // Migrations for future versions go here.

        return migrator
    }
}
